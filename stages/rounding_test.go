package stages

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/scenegraph"
	"github.com/thea-harness/thea/world"
)

// The Scene Graph Brief and the Observation of one turn state the same
// pose and the same object position with the same text, whatever the
// value's rounding; a detection's distance reads as the simulator's
// summary writes it (%.2f).
func TestBriefAndObservationRoundAlike(t *testing.T) {
	at := regexp.MustCompile(`at (\([^)]*\)( facing -?\d+°)?)`)
	for _, c := range []struct{ rx, ry, th, ox, oy, d float64 }{
		{10.55, 2.5, 0, 11.15, 2.5, 1.105},
		{6, 2.5, -0.4, -0.001, 3.14159, 0.295},
		{1.005, -2.675, 89.6, 0.125, 10, 2.675},
		{-3.333, 0.004, -179.5, 12.345, -0.005, 0.6},
	} {
		name := fmt.Sprintf("%v", c)
		obs := world.Observation{
			Pose: &world.Pose{X: c.rx, Y: c.ry, ThetaDeg: c.th, Room: "kitchen"},
			Detections: []world.Detection{{Name: "mug", Relation: "on", Target: "table", Room: "kitchen",
				Position: &world.Point{X: c.ox, Y: c.oy}, DistanceM: c.d}},
		}
		g := scenegraph.New(0)
		g.Update(&obs, 1, "observe")
		brief := g.Brief(scenegraph.BriefLimits{})
		j, err := json.Marshal(obs)
		if err != nil {
			t.Fatal(err)
		}
		var v map[string]any
		if err := json.Unmarshal(j, &v); err != nil {
			t.Fatal(err)
		}
		text := observationText(v, false)
		robot := at.FindStringSubmatch(line(brief, "- robot:"))
		pose := regexp.MustCompile(`^pose: (\([^)]*\) facing -?\d+°)`).FindStringSubmatch(line(text, "pose:"))
		if robot == nil || pose == nil || robot[1] != pose[1] {
			t.Errorf("%s: the robot's pose in the Brief %q, in the Observation %q:\n%s\n%s", name, robot, pose, brief, text)
		}
		mugB := at.FindStringSubmatch(line(brief, "- obj:mug"))
		mugO := at.FindStringSubmatch(line(text, "detections:"))
		if mugB == nil || mugO == nil || mugB[1] != mugO[1] {
			t.Errorf("%s: the mug in the Brief %q, in the Observation %q:\n%s\n%s", name, mugB, mugO, brief, text)
		}
		if want := fmt.Sprintf(", %.2f m away", c.d); !strings.Contains(line(text, "detections:"), want) {
			t.Errorf("%s: the detection's distance is not %q (the summary's rounding):\n%s", name, want, text)
		}
	}
}

// line is the first line of text that starts with prefix.
func line(text, prefix string) string {
	for l := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}
