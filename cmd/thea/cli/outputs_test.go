package cli_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/thea-harness/thea/cmd/thea/cli"
	"github.com/thea-harness/thea/internal/testtime"
)

// theaBounded runs thea in process and fails the test, rather than hanging
// it, when the command blocks (as opening a FIFO does when no one is at its
// other end).
func theaBounded(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
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
	case <-time.After(testtime.Scale(20 * time.Second)):
		t.Fatalf("thea %v blocked", args)
		return 0, "", ""
	}
}

// specialTargets makes, in a temp folder, the paths an output must never
// replace: a FIFO, a symbolic link to /dev/null and, where the process may
// (CAP_MKNOD), a character device of its own with /dev/null's numbers. The
// system's /dev/null is never the target itself: if a write were wrong it
// would replace the link or the copy, nothing else. It returns each path
// with its file type.
func specialTargets(t *testing.T) map[string]fs.FileMode {
	t.Helper()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "null-link")
	if err := os.Symlink("/dev/null", link); err != nil {
		t.Fatal(err)
	}
	out := map[string]fs.FileMode{fifo: fs.ModeNamedPipe, link: fs.ModeSymlink}
	dev := filepath.Join(dir, "null-copy")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
		out[dev] = fs.ModeDevice | fs.ModeCharDevice
	}
	return out
}

// checkKept fails when a special target was replaced or a temporary file
// was left beside it.
func checkKept(t *testing.T, targets map[string]fs.FileMode) {
	t.Helper()
	for p, mode := range targets {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode().Type() != mode {
			t.Errorf("%s was replaced: %v %v", p, fi.Mode(), err)
		}
		entries, _ := os.ReadDir(filepath.Dir(p))
		for _, e := range entries {
			if strings.Contains(e.Name(), ".tmp-") {
				t.Errorf("a temporary file was left beside %s: %s", p, e.Name())
			}
		}
	}
}

// thea report -o refuses a FIFO, a link to /dev/null and a character
// device, leaving each in place (today's main renamed a regular file over
// them).
func TestReportRefusesSpecialOutputs(t *testing.T) {
	dir := householdRun(t)
	targets := specialTargets(t)
	for p := range targets {
		code, _, errs := theaBounded(t, "report", dir, "-o", p)
		if code == 0 || !strings.Contains(errs, p) || !strings.Contains(errs, "not a regular file") {
			t.Errorf("report -o %s: exit %d: %s", p, code, errs)
		}
	}
	checkKept(t, targets)
	// A regular file is still replaced.
	page := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(page, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := theaBounded(t, "report", dir, "-o", page); code != 0 {
		t.Fatalf("report -o a regular file: exit %d: %s", code, errs)
	}
	if b, err := os.ReadFile(page); err != nil || !bytes.HasPrefix(b, []byte("<!DOCTYPE html>")) {
		t.Errorf("page not written: %.40q %v", b, err)
	}
}

// thea eval --out, thea eval merge --out and thea test --junit refuse a
// special target before any episode runs; thea init refuses a FIFO as its
// folder instead of waiting on it.
func TestEvalTestInitRefuseSpecialOutputs(t *testing.T) {
	spec := householdCopy(t)
	targets := specialTargets(t)
	shard := filepath.Join(t.TempDir(), "shard.json")
	if code, out, errs := theaBounded(t, "eval", "--spec", spec, "--episodes", "1", "--format", "json", "--out", shard); code != 0 {
		t.Fatalf("eval: exit %d\n%s\n%s", code, out, errs)
	}
	for p := range targets {
		for _, args := range [][]string{
			{"eval", "--spec", spec, "--episodes", "1", "--out", p},
			{"eval", "merge", "--out", p, shard},
			{"test", "--spec", spec, "--junit", p},
			{"init", "bot", "--dir", p},
		} {
			code, out, errs := theaBounded(t, args...)
			if code == 0 || !strings.Contains(errs, p) || !strings.Contains(errs, "refusing") {
				t.Errorf("%v: exit %d: %s", args, code, errs)
			}
			if strings.Contains(errs, "thea eval: seed") || strings.Contains(out, "PASS") {
				t.Errorf("%v ran before refusing its output:\n%s%s", args, out, errs)
			}
		}
	}
	checkKept(t, targets)
}

// --record takes a plain name: "..", ".", "a/b" and "/abs" are refused at
// once with the reason, and nothing is written into the spec's folder or
// beside it (today's main wrote events.jsonl into the spec folder for
// "..").
func TestRecordNameIsAPlainName(t *testing.T) {
	spec := householdCopy(t)
	specDir := filepath.Dir(spec)
	t.Chdir(t.TempDir())
	for _, name := range []string{"..", ".", "a/b", "../escape", filepath.Join(t.TempDir(), "abs"), `a\b`} {
		code, out, errs := theaBounded(t, "run", "--spec", spec, "--record", name, "Put the mug in the top drawer")
		if code != 2 || !strings.Contains(errs, "--record: episode name") || !strings.Contains(errs, "plain name") {
			t.Errorf("--record %q: exit %d\n%s\n%s", name, code, out, errs)
		}
		if strings.Contains(errs, "episode recorded") {
			t.Errorf("--record %q recorded: %s", name, errs)
		}
	}
	for _, p := range []string{filepath.Join(specDir, "events.jsonl"), filepath.Join(filepath.Dir(specDir), "events.jsonl"), "a", "events.jsonl"} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written", p)
		}
	}
	// An episode's events file that is a FIFO is refused before the run.
	fifoDir := filepath.Join(specDir, "episodes", "piped")
	if err := os.MkdirAll(fifoDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(fifoDir, "events.jsonl"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, errs := theaBounded(t, "run", "--spec", spec, "--record", "piped", "Put the mug in the top drawer")
	if code != 2 || !strings.Contains(errs, "a FIFO") {
		t.Errorf("--record into a FIFO: exit %d: %s", code, errs)
	}
}
