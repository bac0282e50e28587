package cli_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
)

// TestResumeUnderTheSpecAsLoadedNow: a spec changed between the kill and
// the resume is the one in force (a tighter clamp), and the change is said
// to the operator, in the run log and to the model.
func TestResumeUnderTheSpecAsLoadedNow(t *testing.T) {
	c := newResumeCase(t)
	if _, _, killed := c.thea(t, []string{killEnv + "=1"}, "run", "--spec", "spec.cue", mugTask); !killed {
		t.Fatal("thea run was not killed at its first event")
	}
	b, err := os.ReadFile(c.spec)
	if err != nil {
		t.Fatal(err)
	}
	const clamp = `max: "min(limits.max_translation_m, clearance.toward(args.direction) - limits.safety_margin_m)"`
	if !bytes.Contains(b, []byte(clamp)) {
		t.Fatalf("the household spec no longer holds %s", clamp)
	}
	b = bytes.Replace(b, []byte(clamp), []byte(`max: "min(0.4, clearance.toward(args.direction) - limits.safety_margin_m)"`), 1)
	if err := os.WriteFile(c.spec, b, 0o644); err != nil {
		t.Fatal(err)
	}
	dir := c.runDir(t)
	out, code, _ := c.thea(t, nil, "run", "--spec", "spec.cue", "--resume", dir)
	if code != 0 {
		t.Fatalf("resume: exit %d\n%s", code, out)
	}
	if !strings.Contains(out, "the spec changed since the checkpoint") {
		t.Errorf("the operator is not told the spec changed:\n%s", out)
	}
	lines := readLines(t, dir)
	moved := false
	for _, l := range lines {
		switch {
		case l.Kind == runlog.EventSafety && l.Safety == runlog.SafetyResumed && !strings.Contains(l.Text, "spec CHANGED"):
			t.Errorf("the resumed event does not say the spec changed: %s", l.Text)
		case l.Kind == runlog.EventToolCall && l.Tool == "move_base":
			moved = true
			if d, _ := l.Args["distance_m"].(float64); d > 0.4 {
				t.Errorf("move_base ran %v m: the changed clamp (0.4 m) is not in force", d)
			}
		}
	}
	if !moved {
		t.Error("the resumed task never moved the base")
	}
	if reqs := c.model.requests(); len(reqs) == 0 || !strings.Contains(reqs[0], "The spec was changed before the restart") {
		t.Error("the model is not told the spec changed")
	}
}
