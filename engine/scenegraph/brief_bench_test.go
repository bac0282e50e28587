package scenegraph

import (
	"fmt"
	"testing"

	"github.com/thea-harness/thea/world"
)

// household is a graph of n objects in a kitchen, on four places and in a
// drawer, seen by two cameras over the first turns, the robot at a pose.
// It uses the public API only.
func household(n int) (*Graph, []world.Detection) {
	g := New(10)
	places := []string{"table", "counter", "shelf", "sofa"}
	var all []world.Detection
	for i := range n {
		d := world.Detection{Name: fmt.Sprintf("thing%d", i%(n/2+1)), Class: "thing", Camera: "head", Room: "kitchen",
			Relation: "on", Target: places[i%len(places)], Position: pt(float64(i%10), float64(i/10))}
		if i%7 == 0 {
			d.Relation, d.Target = "in", "top_drawer"
		}
		all = append(all, d)
	}
	for turn := 1; turn <= 5; turn++ {
		obs := &world.Observation{Pose: &world.Pose{X: 1, Y: 1, Room: "kitchen"},
			State: map[string]any{"drawers": map[string]any{"top_drawer": "open"}}}
		for i := turn - 1; i < n; i += 5 {
			obs.Detections = append(obs.Detections, all[i])
		}
		g.Update(obs, turn, "observe")
	}
	return g, all
}

// BenchmarkBrief renders the Brief of a household graph turn after turn
// (the default limits: 20 detailed of 40 refs). "advance": the clock moves
// and nothing is seen again, so facts turn stale; "observe": each turn an
// observation sees five of the objects again, two by two cameras, one a
// little moved, and the robot's pose.
func BenchmarkBrief(b *testing.B) {
	l := BriefLimits{Detailed: 20, MaxRefs: 40}
	for _, n := range []int{20, 200} {
		b.Run(fmt.Sprintf("objects=%d/advance", n), func(b *testing.B) {
			g, _ := household(n)
			b.ReportAllocs()
			for turn := 6; b.Loop(); turn++ {
				g.Advance(turn)
				_ = g.Brief(l)
			}
		})
		b.Run(fmt.Sprintf("objects=%d/observe", n), func(b *testing.B) {
			g, all := household(n)
			b.ReportAllocs()
			for turn := 6; b.Loop(); turn++ {
				obs := seeFive(all, turn)
				g.Update(obs, turn, "observe")
				_ = g.Brief(l)
			}
			if g.Len() > n+7 {
				b.Fatalf("%d refs for %d objects: the observations made new ones", g.Len(), n)
			}
		})
	}
}

// seeFive is the observation of turn: five objects, two seen by both
// cameras, one moved a little (back and forth), the robot's pose.
func seeFive(all []world.Detection, turn int) *world.Observation {
	obs := &world.Observation{Pose: &world.Pose{X: 1 + float64(turn%2)/10, Y: 1, Room: "kitchen"},
		Detections: make([]world.Detection, 0, 7)}
	for k := range 5 {
		d := all[(turn*5+k*3)%len(all)]
		if k == 0 {
			p := *d.Position
			p.X += float64(turn%2) / 10
			d.Position = &p
		}
		obs.Detections = append(obs.Detections, d)
		if k < 2 {
			d.Camera = "wrist"
			obs.Detections = append(obs.Detections, d)
		}
	}
	return obs
}
