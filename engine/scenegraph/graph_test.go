package scenegraph

import (
	"errors"
	"strings"
	"testing"

	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

func pt(x, y float64) *world.Point { return &world.Point{X: x, Y: y} }

// kitchen is a full observation: the robot's pose, an empty gripper (held
// sent as ""), the detections and the drawer.
func kitchen(turn int, dets ...world.Detection) *world.Observation {
	o := &world.Observation{Pose: &world.Pose{X: 10, Y: 2.5, Room: "kitchen"}, Detections: dets,
		State: map[string]any{"drawers": map[string]any{"top_drawer": "closed"}}}
	o.SetKnown(world.FieldHeld)
	return o
}

func mug(cam string, x, y float64, target string) world.Detection {
	return world.Detection{Name: "mug", Class: "mug", Camera: cam, Relation: "on", Target: target, Room: "kitchen", Position: pt(x, y)}
}

func TestUpdateBriefProvenanceAndStaleness(t *testing.T) {
	g := New(2)
	g.Update(kitchen(1, mug("head", 11.2, 2.5, "table"), mug("wrist", 11.2, 2.5, "table")), 1, "observe")
	g.Update(&world.Observation{Detections: []world.Detection{{Name: "plate", Class: "dish", Camera: "head", Room: "kitchen"}, {Name: ""}}}, 2, "observe")
	g.Advance(3)
	want := `Scene Graph Brief (turn 3, frame map, 5 refs; [source tN] says where each fact comes from and at which turn of this task ([source, task K]: an earlier task); stale: not confirmed for 2+ turns):
- robot: in kitchen at (10.00, 2.50) facing 0° [observe t1, stale]; holding nothing [observe t1, stale]
- obj:plate (dish): room kitchen [observe/head t2]
- container:top_drawer: closed [observe t1, stale]
- obj:mug: on place:table, at (11.20, 2.50), room kitchen [observe/head+wrist t1, stale]
- place:table: room kitchen`
	if got := g.Brief(BriefLimits{Detailed: 10}); got != want {
		t.Fatalf("Brief:\n%s\nwant:\n%s", got, want)
	}
	// Re-observing refreshes the fact; one object seen by two cameras is one ref.
	g.Update(kitchen(4, mug("head", 11.25, 2.5, "table")), 4, "observe")
	if e := g.Lookup("mug"); len(e) != 1 || e[0].Stale || e[0].SeenTurn != 4 || e[0].Target != "place:table" || e[0].Frame != "map" {
		t.Fatalf("after re-observation: %+v", e)
	}
}

// Two mugs are two refs, and each keeps its ref by position whatever the
// order the detections come in; a mug far from both is a third.
func TestTwoSameNameObjectsKeepTwoRefs(t *testing.T) {
	g := New(10)
	g.Update(kitchen(1, mug("head", 11.2, 2.5, "table"), mug("head", 12.5, 4.6, "cabinet")), 1, "observe")
	g.Update(kitchen(2, mug("head", 12.45, 4.6, "cabinet"), mug("head", 11.15, 2.5, "table")), 2, "observe")
	g.Update(kitchen(3, mug("wrist", 12.5, 4.65, "cabinet")), 3, "observe")
	refs := map[string]string{}
	for _, e := range g.Lookup("mug") {
		refs[e.Ref] = e.Target
	}
	if len(refs) != 2 || refs["obj:mug"] != "place:table" || refs["obj:mug#2"] != "place:cabinet" {
		t.Fatalf("refs %v, want obj:mug on the table and obj:mug#2 on the cabinet", refs)
	}
	if a, b := get(t, g, "obj:mug#2"), get(t, g, "obj:mug"); a.SeenTurn != 3 || b.SeenTurn != 2 {
		t.Fatalf("freshness by instance: %+v", g.Lookup("mug"))
	}
	g.Update(kitchen(4, mug("head", 5, 1, "sofa")), 4, "observe")
	if n := len(g.Lookup("mug")); n != 3 {
		t.Fatalf("a mug 6 m away is another instance: %d refs", n)
	}
	// Without positions, the support tells them apart.
	h := New(10)
	noPos := func(target string) world.Detection {
		return world.Detection{Name: "cup", Camera: "head", Relation: "on", Target: target}
	}
	h.Update(&world.Observation{Detections: []world.Detection{noPos("table"), noPos("shelf")}}, 1, "observe")
	h.Update(&world.Observation{Detections: []world.Detection{noPos("shelf"), noPos("table")}}, 2, "observe")
	if e := h.Lookup("cup"); len(e) != 2 || e[0].Ref == e[1].Ref {
		t.Fatalf("two cups without positions: %+v", e)
	}
}

func get(t *testing.T, g *Graph, ref string) Entry {
	t.Helper()
	e, ok := g.Get(ref)
	if !ok {
		t.Fatalf("no ref %s; refs %v", ref, g.Refs())
	}
	return e
}

func compile(t *testing.T, tool string, effs ...schema.Effect) []schema.CompiledEffect {
	t.Helper()
	s := &schema.Spec{Tools: map[string]schema.ToolContract{tool: {Effects: effs}}}
	r, errs := schema.CompileRules(s)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return r.Effects[tool]
}

func TestEffectsPickPlaceOpenOnce(t *testing.T) {
	g := New(10)
	g.Update(kitchen(1, mug("head", 11.2, 2.5, "table")), 1, "observe")
	pick := compile(t, "pick_up", schema.Effect{Remove: "relation", Of: "args.object_name", Kind: "on"},
		schema.Effect{Set: "robot.holding", To: "args.object_name"})
	ops, err := Evaluate(pick, &schema.CheckEnv{Args: map[string]any{"object_name": "mug"}})
	if err != nil {
		t.Fatal(err)
	}
	src := Source{Kind: "call", Tool: "pick_up", CallID: "c1", Turn: 1}
	lines, err := g.Apply("1/c1", src, ops)
	if err != nil || strings.Join(lines, "; ") != "obj:mug on place:table removed; robot holding obj:mug" {
		t.Fatalf("apply = %q, %v", lines, err)
	}
	if _, err := g.Apply("1/c1", src, ops); !errors.Is(err, ErrApplied) {
		t.Fatalf("second apply of one call: %v", err)
	}
	b := g.Brief(BriefLimits{Detailed: 10})
	for _, want := range []string{"robot: in kitchen at (10.00, 2.50) facing 0° [observe t1]; holding obj:mug [pick_up ✓ t1]", "- obj:mug: held by robot [pick_up ✓ t1]"} {
		if !strings.Contains(b, want) {
			t.Fatalf("Brief lacks %q:\n%s", want, b)
		}
	}
	open := compile(t, "open_drawer", schema.Effect{Set: "state", Of: "args.name", To: "'open'"})
	place := compile(t, "place", schema.Effect{Add: "relation", Of: "args.object_name", Kind: "args.relation", To: "args.target"},
		schema.Effect{Clear: "robot.holding"})
	for i, step := range []struct {
		effs []schema.CompiledEffect
		args map[string]any
	}{{open, map[string]any{"name": "top_drawer"}}, {place, map[string]any{"object_name": "mug", "relation": "in", "target": "top_drawer"}}} {
		ops, err := Evaluate(step.effs, &schema.CheckEnv{Args: step.args})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Apply(string(rune('a'+i)), Source{Kind: "call", Tool: "t", Turn: 2 + i}, ops); err != nil {
			t.Fatal(err)
		}
	}
	if e := get(t, g, "obj:mug"); e.Relation != "in" || e.Target != "container:top_drawer" || e.Position != nil {
		t.Fatalf("mug after place: %+v", e)
	}
	if e := get(t, g, "container:top_drawer"); e.State != "open" {
		t.Fatalf("drawer after open: %+v", e)
	}
	// The next observation sees the mug in the drawer: the same ref.
	in := mug("head", 12.6, 4.2, "top_drawer")
	in.Relation = "in"
	g.Update(kitchen(5, in), 5, "observe")
	if es := g.Lookup("mug"); len(es) != 1 || es[0].Ref != "obj:mug" || es[0].Target != "container:top_drawer" {
		t.Fatalf("mug seen in the drawer: %+v", es)
	}
}

func TestEvaluateRefusesBadValues(t *testing.T) {
	place := compile(t, "place", schema.Effect{Add: "relation", Of: "args.object_name", Kind: "args.relation", To: "args.target"})
	for _, args := range []map[string]any{
		{"object_name": "mug", "relation": "under", "target": "table"},
		{"object_name": 3.0, "relation": "on", "target": "table"},
		{"relation": "on", "target": "table"},
	} {
		if _, err := Evaluate(place, &schema.CheckEnv{Args: args}); err == nil || !strings.Contains(err.Error(), "tools.place.effects[0]") {
			t.Errorf("Evaluate(%v) = %v, want an error naming the effect", args, err)
		}
	}
}

func TestObservationHeldAndNear(t *testing.T) {
	g := New(10)
	g.Update(kitchen(1, mug("head", 11.2, 2.5, "table")), 1, "observe")
	nav := compile(t, "navigate_to", schema.Effect{Set: "robot.near", To: "args.target"})
	ops, _ := Evaluate(nav, &schema.CheckEnv{Args: map[string]any{"target": "table"}})
	if _, err := g.Apply("n", Source{Kind: "call", Tool: "navigate_to", Turn: 1}, ops); err != nil {
		t.Fatal(err)
	}
	obs := kitchen(2)
	obs.Held = "mug"
	g.Update(obs, 2, "observe")
	if r, _ := g.Relations("obj:mug", "held"); len(r) != 1 || r[0].Subject != RobotRef || r[0].Source.Kind != "observation" {
		t.Fatalf("held from observation: %+v", r)
	}
	if r, _ := g.Relations("obj:mug", "on"); len(r) != 0 {
		t.Fatalf("a held mug is on nothing: %+v", r)
	}
	// Driving 3 m away ends "near"; an observation with an empty gripper
	// ends holding.
	far := kitchen(3)
	far.Pose.X = 7
	g.Update(far, 3, "observe")
	if r, _ := g.Relations(RobotRef, ""); len(r) != 0 {
		t.Fatalf("robot relations after driving away empty-handed: %+v", r)
	}
}

func TestLookupsRefuseUnknownRefs(t *testing.T) {
	g := New(10)
	img := []byte("png")
	obs := kitchen(1, mug("head", 11.2, 2.5, "table"))
	obs.Images = []world.Image{{Camera: "head", MIME: "image/png", Data: img}, {Camera: "wrist", MIME: "image/png", Data: []byte("w")}}
	g.Update(obs, 1, "observe")
	if _, err := g.Relations("obj:cup", ""); err == nil || !strings.Contains(err.Error(), `unknown scene-graph ref "obj:cup"`) || !strings.Contains(err.Error(), "obj:mug") {
		t.Fatalf("Relations of an unknown ref: %v", err)
	}
	if _, err := g.Relations("obj:mug", "under"); err == nil {
		t.Fatal("an unknown relation kind must be refused")
	}
	if err := g.Known("robot", "obj:mug", "place:moon"); err == nil || !strings.Contains(err.Error(), `"place:moon"`) {
		t.Fatalf("Known: %v", err)
	}
	v, err := g.View("obj:mug")
	if err != nil || v.Camera != "head" || string(v.Image.Data) != "png" || v.Turn != 1 {
		t.Fatalf("View = %+v, %v", v, err)
	}
	if _, err := g.View("obj:nope"); err == nil {
		t.Fatal("View of an unknown ref must fail")
	}
	if _, err := g.View("place:table"); err == nil || !strings.Contains(err.Error(), "never been seen") {
		t.Fatalf("View of a place no camera saw: %v", err)
	}
	// The head camera's next image does not show the mug: its view is gone
	// (one image per camera is kept), and the error says to look again.
	obs2 := kitchen(2)
	obs2.Images = []world.Image{{Camera: "head", MIME: "image/png", Data: []byte("new")}}
	g.Update(obs2, 2, "observe")
	if _, err := g.View("obj:mug"); err == nil || !strings.Contains(err.Error(), "look again") {
		t.Fatalf("View after the camera moved on: %v", err)
	}
	if len(g.images) != 2 {
		t.Fatalf("stored images %d, want one per camera", len(g.images))
	}
}

// Past the detailed count and within max_brief_refs, every ref still has a
// line: the Brief is compacted by field selection first.
func TestBriefKeepsEveryRef(t *testing.T) {
	g := New(0)
	for i, n := range []string{"a", "b", "c", "d"} {
		g.Update(&world.Observation{Detections: []world.Detection{{Name: n, Class: "thing", Relation: "on", Target: "floor", Room: "hall"}}}, i+1, "obs")
	}
	b := g.Brief(BriefLimits{Detailed: 2})
	if strings.Count(b, "\n- ") != 6 || !strings.Contains(b, "- obj:a: on place:floor [t1]") || !strings.Contains(b, "- obj:d (thing): on place:floor, room hall [obs t4]") {
		t.Fatalf("Brief:\n%s", b)
	}
	if !strings.Contains(New(3).Brief(BriefLimits{Detailed: 3}), "no objects observed yet") {
		t.Fatal("an empty brief must say so")
	}
}

// BenchmarkTurn is one turn's Scene Graph work with 100 known objects: merge
// an observation of 20 detections seen by two cameras, render the Brief.
func BenchmarkTurn(b *testing.B) {
	g := New(10)
	var all []world.Detection
	for i := range 100 {
		all = append(all, world.Detection{Name: "thing", Class: "thing", Camera: "head", Relation: "on", Target: "floor",
			Position: pt(float64(i), 0)})
	}
	g.Update(&world.Observation{Detections: all}, 1, "observe")
	obs := &world.Observation{Pose: &world.Pose{X: 1, Y: 1, Room: "hall"}}
	for i := range 20 {
		d := all[i*5]
		obs.Detections = append(obs.Detections, d)
		d.Camera = "wrist"
		obs.Detections = append(obs.Detections, d)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		g.Update(obs, i+2, "observe")
		_ = g.Brief(BriefLimits{Detailed: 20})
	}
	if g.Len() != 102 {
		b.Fatalf("refs %d, want 100 things, the floor and the robot", g.Len())
	}
}
