package scenegraph

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/thea-harness/thea/world"
)

// flood is an observation of n objects never seen before, at distinct
// distances from the robot at the origin (in a shuffled order), each on a
// shelf.
func flood(turn, n int) *world.Observation {
	obs := &world.Observation{Pose: &world.Pose{Room: "hall"}}
	for i := range n {
		obs.Detections = append(obs.Detections, world.Detection{
			Name: fmt.Sprintf("item%d_%d", turn, i), Class: "thing", Camera: "head", Room: "hall",
			Relation: "on", Target: "shelf", Position: pt(1+float64((i*7919)%n)/100, 0)})
	}
	return obs
}

// 3,000 new names per observation for six turns: the Brief stays the same
// size — the robot, the 40 nearest of the freshest, a line counting the
// rest — and every ref left out is still found by scene_lookup.
func TestBriefBoundedUnderAFloodOfNames(t *testing.T) {
	const perTurn, turns, max = 3000, 6, 40
	g := New(10)
	var sizes []int
	for turn := 1; turn <= turns; turn++ {
		g.Update(flood(turn, perTurn), turn, "observe")
		b := g.Brief(BriefLimits{Detailed: 20, MaxRefs: max})
		sizes = append(sizes, len(b))
		lines := strings.Split(b, "\n")
		// header, robot, max refs, the count
		if len(lines) != max+3 {
			t.Fatalf("turn %d: %d lines, want %d:\n%s", turn, len(lines), max+3, b)
		}
		hidden := g.Len() - 1 - max
		want := fmt.Sprintf("… and %s more refs, not listed: use scene_lookup (a name, class, room or ref) to find them", thousands(hidden))
		if lines[len(lines)-1] != want {
			t.Fatalf("turn %d: last line %q, want %q", turn, lines[len(lines)-1], want)
		}
		// The freshest and nearest: this turn's items at the 40 least
		// distances, the 20 nearest of them detailed.
		seen := map[int]bool{}
		for _, l := range lines[2 : 2+max] {
			var tn, i int
			if _, err := fmt.Sscanf(l, "- obj:item%d_%d", &tn, &i); err != nil || tn != turn {
				t.Fatalf("turn %d: not a fresh item: %q", turn, l)
			}
			rank := (i * 7919) % perTurn
			if rank >= max || seen[rank] || strings.Contains(l, " at (") != (rank < 20) {
				t.Fatalf("turn %d: the item of distance rank %d is listed (detailed: %v): %q", turn, rank, rank < 20, l)
			}
			seen[rank] = true
		}
	}
	if g.Len() != turns*perTurn+2 {
		t.Fatalf("refs %d, want every item, the shelf and the robot", g.Len())
	}
	if slices.Max(sizes) > 4096 || slices.Max(sizes)-slices.Min(sizes) > 64 {
		t.Fatalf("Brief sizes per turn %v: not bounded", sizes)
	}
	for _, ref := range []string{"obj:item1_0", "place:shelf"} {
		if es := g.Lookup(strings.TrimPrefix(strings.TrimPrefix(ref, "obj:"), "place:")); !slices.ContainsFunc(es, func(e Entry) bool { return e.Ref == ref }) {
			t.Errorf("%s, left out of the Brief, is not found by scene_lookup", ref)
		}
	}
	if err := g.Known("obj:nothing"); err == nil || len(err.Error()) > 2048 || !strings.Contains(err.Error(), "… and 17,962 more (scene_lookup finds them)") {
		t.Errorf("an unknown ref's error must list a bounded number of refs: %.300v", err)
	}
}

// What the robot holds or stands near is listed whatever its freshness or
// distance; without positions, the detection's distance says what is near.
func TestBriefBoundKeepsWhatTheRobotHoldsAndIsNear(t *testing.T) {
	g := New(0)
	g.Update(&world.Observation{Held: "cup", Detections: []world.Detection{{Name: "sofa", DistanceM: 9}}}, 1, "observe")
	g.setNear("obj:sofa", Source{Kind: "call", Tool: "navigate_to", Turn: 1})
	var dets []world.Detection
	for i := range 10 {
		dets = append(dets, world.Detection{Name: fmt.Sprintf("box%d", i), DistanceM: float64(10 - i)})
	}
	g.Update(&world.Observation{Held: "cup", Detections: dets}, 2, "observe")
	b := g.Brief(BriefLimits{MaxRefs: 3})
	for _, want := range []string{"- obj:box9", "- obj:cup: held by robot", "- obj:sofa", "… and 9 more refs"} {
		if !strings.Contains(b, want) {
			t.Errorf("no %q in:\n%s", want, b)
		}
	}
	if strings.Contains(b, "obj:box8") {
		t.Errorf("a farther ref listed before what the robot holds or is near:\n%s", b)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 2960: "2,960", 17961: "17,961", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
