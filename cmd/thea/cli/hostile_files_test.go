package cli_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/thea-harness/thea/cmd/thea/cli"
	"github.com/thea-harness/thea/internal/readfile"
	"github.com/thea-harness/thea/internal/readfile/readfiletest"
	"github.com/thea-harness/thea/internal/testtime"
)

// kioskSpec is a body without camera or base, driven by a script and
// answered by a scripted user, with its memory under mem/.
const kioskSpec = `name: kiosk
model: {provider: script, script: turns.yaml}
embodiment:
  name: kiosk
  cameras: []
  frames: []
  limits: {min_clearance_m: 0.3, safety_margin_m: 0.1}
toolsets: {core: {kind: builtin}}
loop: {stages: [task_notes, compact]}
user: {channel: script, script: answers.yaml}
memory: {dir: mem, consolidation: {enabled: false}}
run_log: {enabled: false}
`

// kiosk writes the spec and its files into a fresh folder and returns it.
func kiosk(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"spec.yaml":    kioskSpec,
		"turns.yaml":   "- text: hello\n",
		"answers.yaml": "answers: []\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// withHostile replaces path by each hostile kind of file in turn (a FIFO with
// no writer, a link to /dev/zero, a sparse file past the kind's limit) and
// calls check with the phrase its error must hold.
func withHostile(t *testing.T, path string, k readfile.Kind, check func(kind, want string)) {
	t.Helper()
	for _, h := range []struct{ kind, want string }{
		{"fifo", "not a regular file (a FIFO)"},
		{"zero", "not a regular file (a character device)"},
		{"large", fmt.Sprintf("file too large: %d bytes, larger than %s, the limit for", k.Max()+1, readfile.Human(k.Max()))},
	} {
		if err := os.RemoveAll(path); err != nil {
			t.Fatal(err)
		}
		var err error
		switch h.kind {
		case "fifo":
			err = syscall.Mkfifo(path, 0o600)
		case "zero":
			err = os.Symlink("/dev/zero", path)
		case "large":
			readfiletest.Sparse(t, path, k.Max()+1)
		}
		if err != nil {
			t.Fatal(err)
		}
		check(h.kind, h.want)
	}
}

// runs runs the command in process and fails as a hang if it has not
// ended after a scaled minute (without the one reader a FIFO blocks forever).
func runs(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	t.Chdir(dir)
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		c := cli.Execute(t.Context(), strings.NewReader(""), &out, &errb, args)
		done <- result{c, out.String(), errb.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.out, r.err
	case <-time.After(testtime.Scale(time.Minute)):
		t.Fatalf("thea %s hangs", strings.Join(args, " "))
	}
	return 0, "", ""
}

// thea validate applies run's own check to model.script and user.script:
// a FIFO, /dev/zero or a file past the limit is a positioned diagnostic,
// not "spec ok".
func TestValidateRefusesHostileScripts(t *testing.T) {
	dir := kiosk(t)
	if code, out, errs := runs(t, dir, "validate", "spec.yaml"); code != 0 || !strings.HasPrefix(out, "spec ok") {
		t.Fatalf("the kiosk spec: exit %d, %q, %q", code, out, errs)
	}
	for _, tc := range []struct {
		file, good, at string
		kind           readfile.Kind
	}{
		{"turns.yaml", "- text: hello\n", `spec.yaml:2:35: model.script: "turns.yaml" cannot be read: `, readfile.Script},
		{"answers.yaml", "answers: []\n", `spec.yaml:10:33: user.script: "answers.yaml" cannot be read: `, readfile.Answers},
	} {
		path := filepath.Join(dir, tc.file)
		withHostile(t, path, tc.kind, func(kind, want string) {
			code, out, _ := runs(t, dir, "validate", "spec.yaml")
			if code != 1 || !strings.Contains(out, tc.at) || !strings.Contains(out, want) || strings.Contains(out, "spec ok") {
				t.Errorf("%s as %s: exit %d, stdout %q; want %q…%q", tc.file, kind, code, out, tc.at, want)
			}
		})
		// Put the good file back before the next one is tried.
		if err := os.Remove(path); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(tc.good), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The replay provider's episode is checked by validate as run reads it.
func TestValidateRefusesHostileEpisode(t *testing.T) {
	dir := kiosk(t)
	spec := strings.Replace(kioskSpec, "{provider: script, script: turns.yaml}", "{provider: replay, script: episodes/e1}", 1)
	if err := os.WriteFile(filepath.Join(dir, "spec.yaml"), []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "episodes", "e1"), 0o755); err != nil {
		t.Fatal(err)
	}
	withHostile(t, filepath.Join(dir, "episodes", "e1", "events.jsonl"), readfile.Episode, func(kind, want string) {
		code, out, _ := runs(t, dir, "validate", "spec.yaml")
		if kind == "zero" {
			want = "leads outside its folder"
		}
		if code != 1 || !strings.Contains(out, `spec.yaml:2:35: model.script: episode "episodes/e1" cannot be read: episodes/e1/events.jsonl: `) || !strings.Contains(out, want) {
			t.Errorf("events.jsonl as %s: exit %d, stdout %q; want %q", kind, code, out, want)
		}
	})
}

// A hostile MEMORY.md or tool-experience file ends `thea run` and
// `thea context` at once with the reason; a MEMORY.md linked to
// /etc/passwd is refused, never shown.
func TestRunRefusesHostileMemory(t *testing.T) {
	dir := kiosk(t)
	mem := filepath.Join(dir, "mem")
	if err := os.MkdirAll(filepath.Join(mem, "tool_experience"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"MEMORY.md", "tool_experience/notify_user.md"} {
		withHostile(t, filepath.Join(mem, rel), readfile.Memory, func(kind, want string) {
			if kind == "zero" {
				want = "refused: leads outside its folder (mem/" + rel + " is a symlink to /dev/zero; symlinks are followed only inside mem)"
			}
			want = "mem/" + rel + ": " + strings.TrimPrefix(want, "mem/"+rel+": ")
			for _, args := range [][]string{{"run", "--spec", "spec.yaml", "hello"}, {"context", "--spec", "spec.yaml"}} {
				code, out, errs := runs(t, dir, args...)
				if code == 0 || !strings.Contains(out+errs, want) {
					t.Errorf("%s as %s, thea %s: exit %d, stdout %q, stderr %q; want %q", rel, kind, args[0], code, out, errs, want)
				}
			}
		})
		if err := os.Remove(filepath.Join(mem, rel)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(mem, "MEMORY.md")); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"run", "--spec", "spec.yaml", "hello"}, {"context", "--spec", "spec.yaml"}} {
		code, out, errs := runs(t, dir, args...)
		if code == 0 || strings.Contains(out+errs, "root:") || !strings.Contains(out+errs, "MEMORY.md: refused: leads outside its folder") {
			t.Errorf("MEMORY.md -> /etc/passwd, thea %s: exit %d, stdout %q, stderr %q", args[0], code, out, errs)
		}
	}
}

// Episodes, run logs and merge shards that are FIFOs, devices or too
// large end `thea test`, `thea report` and `thea eval merge` at once with
// an error naming the file.
func TestHostileEpisodeReportAndMergeInputs(t *testing.T) {
	dir := kiosk(t)
	ep := filepath.Join(dir, "episodes", "e1")
	if err := os.MkdirAll(ep, 0o755); err != nil {
		t.Fatal(err)
	}
	events := filepath.Join(ep, "events.jsonl")
	withHostile(t, events, readfile.Episode, func(kind, want string) {
		if kind == "zero" {
			want = "leads outside its folder"
		}
		code, out, errs := runs(t, dir, "test", "--spec", "spec.yaml")
		if code != 1 || !strings.Contains(out+errs, "episodes/e1/events.jsonl: ") || !strings.Contains(out+errs, want) {
			t.Errorf("thea test, events.jsonl as %s: exit %d, stdout %q, stderr %q; want %q", kind, code, out, errs, want)
		}
		code, out, errs = runs(t, dir, "report", ep, "-o", "-")
		if code != 1 || !strings.Contains(errs, events) || !strings.Contains(errs, strings.Replace(want, "episode events file", "run log", 1)) {
			t.Errorf("thea report, events.jsonl as %s: exit %d, stdout %.200q, stderr %q; want %q", kind, code, out, errs, want)
		}
	})
	// A FIFO where the run directory should be.
	runDir := filepath.Join(dir, "run-fifo")
	if err := syscall.Mkfifo(runDir, 0o600); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runs(t, dir, "report", runDir, "-o", "-"); code != 1 || !strings.Contains(errs, "run-fifo: not a folder (a FIFO)") {
		t.Errorf("thea report of a FIFO: exit %d, stderr %q", code, errs)
	}
	shard := filepath.Join(dir, "shard.json")
	withHostile(t, shard, readfile.EvalResult, func(kind, want string) {
		code, out, errs := runs(t, dir, "eval", "merge", shard)
		if code == 0 || !strings.Contains(errs, shard) || !strings.Contains(errs, want) {
			t.Errorf("thea eval merge, a shard as %s: exit %d, stdout %q, stderr %q; want %q", kind, code, out, errs, want)
		}
	})
}

// The real thea process (cli.Main: its signals, its exit) given an episode
// that is a FIFO with no writer ends at once with the reason, where it
// used to hang past SIGTERM.
func TestTheaProcessEndsOnAFIFOEpisode(t *testing.T) {
	dir := kiosk(t)
	ep := filepath.Join(dir, "episodes", "e1")
	if err := os.MkdirAll(ep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(ep, "events.jsonl"), 0o600); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(time.Minute))
	defer cancel()
	for _, args := range [][]string{{"test", "--spec", "spec.yaml"}, {"report", ep}, {"eval", "merge", filepath.Join(ep, "events.jsonl")}} {
		cmd := exec.CommandContext(ctx, self, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), ptyMainEnv+"=1")
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stderr, &stderr
		err := cmd.Run()
		if ctx.Err() != nil {
			t.Fatalf("thea %s hangs on a FIFO", args[0])
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() == 0 || !strings.Contains(stderr.String(), "events.jsonl: not a regular file (a FIFO)") {
			t.Errorf("thea %s: %v, output %q", strings.Join(args, " "), err, stderr.String())
		}
	}
}
