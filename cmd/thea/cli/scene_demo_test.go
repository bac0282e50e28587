package cli_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// checkBriefTracksSim reads the household episode's run log and checks, turn
// by turn, that the Brief the model read agrees with what the simulator
// reported in that turn's observation (what the gripper holds, each drawer's
// state), and that it follows the mug from the table to the gripper to the
// drawer, with every confirmed call's effects applied once.
func checkBriefTracksSim(t *testing.T, evs []runlog.Event) {
	t.Helper()
	obs := map[int]*world.Observation{}
	briefs := map[int]string{}
	var effects []string
	for _, ev := range evs {
		switch {
		case ev.Kind == runlog.EventObservation && ev.Observation != nil:
			obs[ev.Turn] = ev.Observation
		case ev.Kind == runlog.EventScene && ev.Tool == "":
			briefs[ev.Turn] = ev.Text
		case ev.Kind == runlog.EventScene:
			effects = append(effects, fmt.Sprintf("%d %s: %s", ev.Turn, ev.Tool, ev.Text))
		}
	}
	if len(briefs) != 10 || len(obs) != 10 {
		t.Fatalf("%d briefs and %d observations in the run log, want one per turn (10)", len(briefs), len(obs))
	}
	for turn := 1; turn <= 10; turn++ {
		b, o := briefs[turn], obs[turn]
		held := "robot: in " + o.Pose.Room
		if !strings.Contains(b, held) || !strings.Contains(b, "frame map") {
			t.Errorf("turn %d Brief lacks the robot in %s in frame map:\n%s", turn, o.Pose.Room, b)
		}
		want := "holding nothing"
		if o.Held != "" {
			want = "holding obj:" + o.Held
		}
		if !strings.Contains(b, want) {
			t.Errorf("turn %d: the simulator holds %q, the Brief lacks %q:\n%s", turn, o.Held, want, b)
		}
		drawers, _ := o.State["drawers"].(map[string]any)
		for name, st := range drawers {
			// Seen by a camera, a drawer's line names its class (and its
			// furniture); reported only by state, it is the state alone.
			if line := fmt.Sprintf("- container:%s: %s", name, st); !strings.Contains(b, line) && !strings.Contains(b, fmt.Sprintf("- container:%s (drawer): %s", name, st)) {
				t.Errorf("turn %d: the simulator's %s is %v, the Brief lacks %q:\n%s", turn, name, st, line, b)
			}
		}
	}
	// The mug's way, as the model read it.
	for turn, want := range map[int]string{
		2: "- obj:mug: on place:table, at (11.15, 2.50), room kitchen [observe/head t2]",
		// pick_up's effect at turn 4, confirmed by the turn 5 observation.
		5: "- obj:mug: held by robot [observe t5]",
		8: "- container:top_drawer (drawer): open [observe t8], in place:cabinet",
		9: "- obj:mug: in container:top_drawer, at (12.60, 4.45), room kitchen [observe/head+wrist t9]",
		// The closed drawer hides it: the fact keeps its turn-9 source.
		10: "- obj:mug: in container:top_drawer, at (12.60, 4.45), room kitchen [observe/head+wrist t9]",
	} {
		if !strings.Contains(briefs[turn], want) {
			t.Errorf("turn %d Brief lacks %q:\n%s", turn, want, briefs[turn])
		}
	}
	if !strings.Contains(briefs[2], "near place:table [navigate_to ✓ t1]") || !strings.Contains(briefs[7], "near place:cabinet [navigate_to ✓ t6]") {
		t.Errorf("navigate_to's effect missing:\n%s\n%s", briefs[2], briefs[7])
	}
	// Refs persist: one mug, one keys, whatever the number of sightings.
	if strings.Count(briefs[10], "obj:mug") != 1 || strings.Contains(briefs[10], "obj:mug#") {
		t.Errorf("the mug must keep one ref:\n%s", briefs[10])
	}
	wantEffects := []string{
		"1 navigate_to: robot near place:table",
		"4 pick_up: obj:mug on place:table removed; robot holding obj:mug",
		"6 navigate_to: robot near place:cabinet",
		"7 open_drawer: container:top_drawer open",
		"8 place: obj:mug in container:top_drawer; robot holding nothing",
		"9 close_drawer: container:top_drawer closed",
	}
	if strings.Join(effects, "\n") != strings.Join(wantEffects, "\n") {
		t.Errorf("effects applied:\n%s\nwant (the failed grasp at turn 2 changes nothing):\n%s", strings.Join(effects, "\n"), strings.Join(wantEffects, "\n"))
	}
}
