package scenegraph

import (
	"encoding/json"
	"strings"
	"testing"
)

// A graph restored from its snapshot (through JSON, as a checkpoint keeps
// it) renders the same Brief and goes on matching detections to the same
// refs; MarkAllUnconfirmed then marks every fact but places.
func TestSnapshotRestoresTheGraph(t *testing.T) {
	g := New(5)
	g.BeginTask(1, 0)
	g.Update(kitchen(1, mug("head", 11.2, 2.5, "table"), mug("head", 12.5, 4.6, "cabinet")), 1, "observe")
	g.Advance(2)
	b, err := json.Marshal(g.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	var s Snapshot
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	r := New(5)
	if err := r.Restore(s); err != nil {
		t.Fatal(err)
	}
	if got, want := r.Brief(BriefLimits{Detailed: 10}), g.Brief(BriefLimits{Detailed: 10}); got != want {
		t.Fatalf("restored Brief:\n%s\nwant:\n%s", got, want)
	}
	r.Update(kitchen(3, mug("wrist", 12.45, 4.6, "cabinet")), 3, "observe")
	if e, ok := r.Get("obj:mug#2"); !ok || e.SeenTurn != 3 {
		t.Fatalf("a detection after the restore is not matched to its ref: %+v", e)
	}
	places := 0
	for _, n := range r.order {
		if n.kind == KindPlace {
			places++
		}
	}
	if n := len(r.MarkAllUnconfirmed(4)); n != len(r.order)-places || len(r.Unconfirmed()) != n {
		t.Errorf("MarkAllUnconfirmed marked %d refs (%d unconfirmed), want all %d but the %d places", n, len(r.Unconfirmed()), len(r.order)-places, places)
	}
	if !strings.Contains(r.Brief(BriefLimits{Detailed: 10}), "unconfirmed") {
		t.Errorf("the Brief does not say the facts are unconfirmed:\n%s", r.Brief(BriefLimits{Detailed: 10}))
	}
}

// A snapshot is read, not trusted: a relation naming an unknown ref, a
// repeated ref or a missing robot is refused and the graph is kept.
func TestRestoreRefusesBrokenSnapshots(t *testing.T) {
	g := New(5)
	g.Update(kitchen(1, mug("head", 11.2, 2.5, "table")), 1, "observe")
	for name, breakIt := range map[string]func(s *Snapshot){
		"unknown ref": func(s *Snapshot) { s.Relations[0].Target = "place:nowhere" },
		"repeated":    func(s *Snapshot) { s.Nodes = append(s.Nodes, s.Nodes[1]) },
		"no robot":    func(s *Snapshot) { s.Nodes = s.Nodes[1:]; s.Relations = nil },
	} {
		s := g.Snapshot()
		breakIt(&s)
		r := New(5)
		r.Update(kitchen(1, mug("head", 1, 1, "table")), 1, "observe")
		before := r.Brief(BriefLimits{Detailed: 10})
		if err := r.Restore(s); err == nil {
			t.Errorf("%s: restored", name)
		}
		if r.Brief(BriefLimits{Detailed: 10}) != before {
			t.Errorf("%s: the graph changed on a refused restore", name)
		}
	}
}
