package scenegraph

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// decoded is an observation as a back-end sends it (JSON), so which fields
// it left out is known.
func decoded(t *testing.T, js string) *world.Observation {
	t.Helper()
	var o world.Observation
	if err := json.Unmarshal([]byte(js), &o); err != nil {
		t.Fatal(err)
	}
	return &o
}

func robotLine(g *Graph) string {
	return strings.SplitN(g.Brief(BriefLimits{}), "\n", 3)[1]
}

// An observation without held says nothing about the gripper: the Brief
// keeps the mug the pick put there, with its source and age, and never
// says "holding nothing" until an observation sends held empty.
func TestAbsentHeldKeepsTheHeldObject(t *testing.T) {
	g := New(10)
	if l := robotLine(g); strings.Contains(l, "holding nothing") || !strings.Contains(l, "holding: unknown") {
		t.Fatalf("before any evidence: %q", l)
	}
	g.Update(decoded(t, `{"held": "", "detections": [{"name": "mug", "class": "mug", "camera": "head", "relation": "on", "target": "table"}]}`), 1, "observe")
	if l := robotLine(g); !strings.Contains(l, "holding nothing [observe t1]") {
		t.Fatalf("held sent empty: %q", l)
	}
	pick := compile(t, "pick_up", schema.Effect{Set: "robot.holding", To: "args.object_name"})
	ops, err := Evaluate(pick, &schema.CheckEnv{Args: map[string]any{"object_name": "mug"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Apply("2/c1", Source{Kind: "call", Tool: "pick_up", CallID: "c1", Turn: 2}, ops); err != nil {
		t.Fatal(err)
	}
	// Observations that leave held out (a camera-only back-end, a topic
	// that did not publish): the confirmed pick stands.
	for turn := 3; turn <= 5; turn++ {
		g.Update(decoded(t, `{"pose": {"x": 1, "y": 2, "theta_deg": 0}, "state": {"battery": 0.8}}`), turn, "observe")
	}
	l := robotLine(g)
	if strings.Contains(l, "holding nothing") || !strings.Contains(l, "holding obj:mug [pick_up ✓ t2]") {
		t.Fatalf("after observations without held: %q", l)
	}
	// Sent empty, it is evidence: the robot holds nothing, as of turn 6.
	g.Update(decoded(t, `{"held": ""}`), 6, "observe")
	if l := robotLine(g); !strings.Contains(l, "holding nothing [observe t6]") {
		t.Fatalf("held sent empty after the pick: %q", l)
	}
}

// After a physical call without a success verdict, what it may have
// changed reads "unconfirmed since turn N" until an observation reports it
// again; a confirmed effect clears the mark too.
func TestUnconfirmedUntilObserved(t *testing.T) {
	g := New(10)
	g.Update(decoded(t, `{"held": "", "detections": [
		{"name": "mug", "class": "mug", "camera": "head", "relation": "on", "target": "table"},
		{"name": "plate", "class": "dish", "camera": "head", "relation": "on", "target": "table"}]}`), 1, "observe")
	pick := compile(t, "pick_up", schema.Effect{Set: "robot.holding", To: "args.object_name"})
	env := &schema.CheckEnv{Args: map[string]any{"object_name": "mug", "speed": 0.2}}
	if !Unverified(true, nil) || !Unverified(true, &world.Verdict{Status: world.VerdictProcess}) ||
		Unverified(true, &world.Verdict{Status: world.VerdictSuccess}) || Unverified(false, nil) {
		t.Fatal("Unverified: a physical call with no verdict or a process one, only")
	}
	refs := g.MarkUnconfirmed(2, pick, env)
	if !slices.Equal(refs, []string{RobotRef, "obj:mug"}) {
		t.Fatalf("marked %v, want the robot's hand and the mug", refs)
	}
	b := g.Brief(BriefLimits{})
	if !strings.Contains(b, "holding nothing [observe t1] (unconfirmed since turn 2)") ||
		!strings.HasSuffix(lineOf(b, "obj:mug"), "(unconfirmed since turn 2)") {
		t.Fatalf("Brief after the unverified pick:\n%s", b)
	}
	if strings.Contains(lineOf(b, "obj:plate"), "unconfirmed") {
		t.Fatalf("the plate was not named by the call:\n%s", b)
	}
	// An observation without held and without the mug confirms neither.
	g.Update(decoded(t, `{"pose": {"x": 1, "y": 2, "theta_deg": 0}}`), 3, "observe")
	if got := g.unconfirmedRefs(); !slices.Equal(got, []string{RobotRef, "obj:mug"}) {
		t.Fatalf("after an observation that reports neither: %v", got)
	}
	// One that reports the gripper and sees the mug confirms both.
	g.Update(decoded(t, `{"held": "mug"}`), 4, "observe")
	if got := g.unconfirmedRefs(); len(got) != 0 {
		t.Fatalf("after the mug was reported held: still unconfirmed %v", got)
	}
	if b := g.Brief(BriefLimits{}); strings.Contains(b, "unconfirmed") || !strings.Contains(b, "holding obj:mug [observe t4]") {
		t.Fatalf("Brief after the confirming observation:\n%s", b)
	}
	// A held object is marked by any physical call (a base motion may drop
	// it); a detection of it clears its mark.
	g.MarkUnconfirmed(5, nil, &schema.CheckEnv{Args: map[string]any{"direction": "forward"}})
	if got := g.unconfirmedRefs(); !slices.Equal(got, []string{RobotRef, "obj:mug"}) {
		t.Fatalf("a base motion holding the mug: %v", got)
	}
	g.Update(decoded(t, `{"detections": [{"name": "mug", "class": "mug", "camera": "head", "relation": "on", "target": "floor"}]}`), 6, "observe")
	if got := g.unconfirmedRefs(); !slices.Equal(got, []string{RobotRef}) {
		t.Fatalf("the mug seen on the floor: %v (the hand stays unconfirmed until held is reported)", got)
	}
}

func lineOf(brief, ref string) string {
	for _, l := range strings.Split(brief, "\n") {
		if strings.HasPrefix(l, "- "+ref) {
			return l
		}
	}
	return ""
}
