package cli_test

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/internal/testutil"
	"github.com/thea-harness/thea/schema"
)

var updateContext = flag.Bool("update-context", false, "rewrite the expected output of testdata/context/*.txt")

// The rendered first request, in the shape of Caddy's adapt tests: each file
// holds the command's arguments, a separator line, and the exact output.
// A change to what the model sees (a lifetime, a tool definition, the
// Brief) shows here as a diff.
func TestContextGolden(t *testing.T) {
	const sep = "\n----------\n"
	files, err := filepath.Glob("testdata/context/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			in, want, ok := strings.Cut(string(b), sep)
			if !ok {
				t.Fatalf("%s: no separator line", f)
			}
			var args []string
			for _, l := range strings.Split(strings.TrimSpace(in), "\n") {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
					args = append(args, l)
				}
			}
			for i := 1; i < len(args); i++ {
				if args[i-1] == "--spec" { // a copy: no memory of earlier runs
					args[i] = testutil.ExampleCopy(t, args[i])
				}
			}
			code, out, errs := run(t, append([]string{"context"}, args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			if *updateContext {
				if err := os.WriteFile(f, []byte(in+sep+out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if out != want {
				t.Errorf("thea context %v: output differs from %s (run with -update-context to accept)\n%s", args, f, lineDiff(want, out))
			}
		})
	}
}

// lineDiff shows the first lines that differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\n  want: " + wl + "\n  got:  " + gl
		}
	}
	return "(same lines, different endings)"
}

// No post-condition of the household spec reaches the acting model's request.
func TestContextHasNoPostConditions(t *testing.T) {
	code, out, errs := run(t, "context", "--spec", "../../../examples/household/spec.cue", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	spec, diags := schema.Load([]string{"../../../examples/household/spec.cue"}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: componentstest.Descriptors(t)})
	if spec == nil {
		t.Fatal(diags)
	}
	n := 0
	for name, c := range spec.Tools {
		if c.PostCondition == "" {
			continue
		}
		n++
		if strings.Contains(out, c.PostCondition) {
			t.Errorf("the post-condition of %s is in the request", name)
		}
	}
	if n == 0 {
		t.Fatal("the household spec declares no post-condition: the test proves nothing")
	}
}

// The household episode ends with a consolidated lesson about pick_up; the
// next session's first request shows it in pick_up's description, and
// --offline starts no back-end at all.
func TestContextShowsTheLessonOfTheLastRun(t *testing.T) {
	spec := testutil.ExampleCopy(t, "../../../examples/household/spec.cue")
	if code, _, errs := run(t, "run", "--spec", spec, "--run-log", t.TempDir(), "Put the mug in the top drawer"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errs)
	}
	code, out, errs := run(t, "context", "--spec", spec)
	if code != 0 {
		t.Fatalf("context: exit %d: %s", code, errs)
	}
	_, pick, ok := strings.Cut(out, "── pick_up\n")
	pick, _, _ = strings.Cut(pick, "\n── ")
	if !ok || !strings.Contains(pick, "Experience from earlier tasks:") || !strings.Contains(pick, "A grasp from about 1.1 m fails") {
		t.Fatalf("pick_up's description lacks the consolidated lesson:\n%s", pick)
	}
	code, out, errs = run(t, "context", "--spec", spec, "--offline")
	if code != 0 || strings.Contains(out, "── pick_up\n") || !strings.Contains(errs, "offline: not started: sim") {
		t.Fatalf("context --offline: exit %d, stderr %q, pick_up listed %v", code, errs, strings.Contains(out, "── pick_up\n"))
	}
}

// --offline leaves out a back-end's safety readings tool with its toolset,
// so a spec that binds safety.readings to it still shows its context.
func TestContextOfflineWithSafetyReadings(t *testing.T) {
	spec := testutil.ExampleCopy(t, "../../../examples/turtlebot/spec.cue")
	code, _, errs := run(t, "context", "--spec", spec, "--offline")
	if code != 0 || !strings.Contains(errs, "offline: not started: robot") {
		t.Fatalf("context --offline: exit %d, stderr %q", code, errs)
	}
}
