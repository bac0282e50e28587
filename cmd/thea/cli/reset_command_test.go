package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withReset writes an overlay of the household example with a reset
// command, and returns the spec flags.
func withReset(t *testing.T, spec, command string) []string {
	t.Helper()
	overlay := filepath.Join(filepath.Dir(spec), "reset.cue")
	text := "package household\n\nepisodes: reset: command: " + command + "\n"
	if err := os.WriteFile(overlay, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{"--spec", spec, "--spec", overlay}
}

// A reset command runs before each episode in the spec's folder, given the
// episode's seed ({{seed}}, THEA_SEED) and its task (THEA_TASK); thea eval
// runs it once per seed. One that fails stops the episode, saying why.
func TestResetCommandBeforeEachEpisode(t *testing.T) {
	spec := householdCopy(t)
	dir := filepath.Dir(spec)
	flags := withReset(t, spec, `["sh", "-c", "echo \"{{seed}} $THEA_SEED $THEA_TASK\" >> resets.txt"]`)
	code, out, errs := thea(t, append([]string{"test"}, flags...)...)
	if code != 0 || !strings.Contains(out, "PASS put-mug-in-drawer") {
		t.Fatalf("thea test with a reset command: exit %d\n%s\n%s", code, out, errs)
	}
	if got := mustRead(t, filepath.Join(dir, "resets.txt")); got != "7 7 Put the mug in the top drawer\n" {
		t.Errorf("the reset command wrote %q", got)
	}
	if err := os.Remove(filepath.Join(dir, "resets.txt")); err != nil {
		t.Fatal(err)
	}
	code, out, errs = thea(t, append([]string{"eval", "--seeds", "3..4"}, append(flags, "Put the mug in the top drawer")...)...)
	if code != 0 {
		t.Fatalf("thea eval with a reset command: exit %d\n%s\n%s", code, out, errs)
	}
	if got := mustRead(t, filepath.Join(dir, "resets.txt")); got != "3 3 Put the mug in the top drawer\n4 4 Put the mug in the top drawer\n" {
		t.Errorf("thea eval's resets wrote %q", got)
	}

	flags = withReset(t, spec, `["sh", "-c", "echo the arm is not at home >&2; exit 3"]`)
	code, out, _ = thea(t, append([]string{"test"}, flags...)...)
	if code != 1 || !strings.Contains(out, "FAIL put-mug-in-drawer") || !strings.Contains(out, "reset: ") || !strings.Contains(out, "exit status 3: the arm is not at home") {
		t.Fatalf("thea test with a failing reset: exit %d\n%s", code, out)
	}
}

// thea validate says where a reset step is wrong: neither a tool nor a
// command, both, or a tool no toolset provides.
func TestValidateResetStep(t *testing.T) {
	spec := householdCopy(t)
	for _, tc := range []struct{ overlay, want string }{
		{`{timeout: "5s"}`, "episodes.reset: a reset step needs a tool (called with {seed, task}) or a command"},
		{`{tool: "observe", command: ["true"]}`, "episodes.reset.command: a reset step is a tool or a command, not both"},
		{`{tool: "reset_everything"}`, `episodes.reset.tool: no toolset provides the tool "reset_everything"`},
	} {
		flags := withReset(t, spec, "null")
		overlay := flags[len(flags)-1]
		if err := os.WriteFile(overlay, []byte("package household\n\nepisodes: reset: "+tc.overlay+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errs := thea(t, "validate", spec, overlay)
		if code != 1 || !strings.Contains(out+errs, tc.want) || !strings.Contains(out+errs, "reset.cue:") {
			t.Errorf("validate with reset %s: exit %d\n%s%s", tc.overlay, code, out, errs)
		}
	}
}
