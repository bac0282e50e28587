package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// `thea init` for every body: the folder validates as created (its rule
// tests run and pass), and its scripted episode runs end to end against the
// Python back-end stub in a real subprocess, ending with a final answer.
func TestInitValidatesAndRuns(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed: the back-end stub cannot run")
	}
	for _, body := range []string{"mobile", "arm", "fixed"} {
		t.Run(body, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "bot")
			if code, out, errs := run(t, "init", "bot-"+body, "--body", body, "--dir", dir); code != 0 {
				t.Fatalf("init: exit %d\n%s%s", code, out, errs)
			}
			for _, f := range []string{"spec.cue", "server.py", "episode.yaml", "README.md", ".gitignore", "skills/first-steps/SKILL.md"} {
				b, err := os.ReadFile(filepath.Join(dir, f))
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(b), "<no value>") || len(b) == 0 {
					t.Errorf("%s is not fully rendered", f)
				}
			}
			spec := filepath.Join(dir, "spec.cue")
			if code, out, errs := run(t, "validate", spec); code != 0 || !strings.HasPrefix(out, "spec ok: ") || strings.Contains(out, "warning") {
				t.Fatalf("validate: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
			}
			readme, _ := os.ReadFile(filepath.Join(dir, "README.md"))
			if !strings.Contains(string(readme), "## What to fill in next") {
				t.Error("README does not say what to fill in next")
			}
			instruction := map[string]string{"mobile": "Drive forward half a metre", "arm": "Move the gripper above the cube", "fixed": "Look to the left"}[body]
			code, out, errs := run(t, "run", "--spec", spec, "--run-log", filepath.Join(t.TempDir(), "runs"), instruction)
			if code != 0 || !strings.Contains(out, "── done: final_answer") || !strings.Contains(out, "success (by check)") {
				t.Fatalf("run: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
			}
		})
	}
}

// A rule test of the scaffolded spec can fail: validate reports it.
func TestInitRuleTestsBite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bot")
	if code, _, errs := run(t, "init", "bot", "--dir", dir); code != 0 {
		t.Fatal(errs)
	}
	spec := filepath.Join(dir, "spec.cue")
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(b), `expect: {verdict: "block", hook: "boxed_in"}`, `expect: {verdict: "allow"}`, 1)
	if broken == string(b) {
		t.Fatal("the mobile spec has no boxed_in rule test")
	}
	if err := os.WriteFile(spec, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := run(t, "validate", spec); code != 1 || !strings.Contains(out, "boxed in, the base does not move") {
		t.Fatalf("validate: exit %d, %s", code, out)
	}
}

func TestInitRefuses(t *testing.T) {
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "keep.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"init", "bot", "--dir", full}, "not empty"},
		{[]string{"init", "bot", "--body", "drone", "--dir", filepath.Join(t.TempDir(), "x")}, `body "drone": must be one of mobile, arm, fixed`},
		{[]string{"init", "Bad Name!", "--dir", filepath.Join(t.TempDir(), "y")}, "robot name"},
		{[]string{"init"}, "accepts 1 arg"},
	} {
		code, _, errs := run(t, tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
	if b, err := os.ReadFile(filepath.Join(full, "keep.txt")); err != nil || string(b) != "mine" {
		t.Errorf("the existing folder was touched: %q %v", b, err)
	}
	if entries, _ := os.ReadDir(full); len(entries) != 1 {
		t.Errorf("files were added to a non-empty folder: %v", entries)
	}
}
