package scenegraph

import (
	"slices"
	"strings"
	"testing"

	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

func refsOf(g *Graph, name string) []string {
	var out []string
	for _, e := range g.Lookup(name) {
		out = append(out, e.Ref)
	}
	slices.Sort(out)
	return out
}

// A back-end that reports neither a position nor a support (a door seen by
// a quadruped's camera) keeps one ref per object across observations, not a
// new obj:front_door#N every turn.
func TestDetectionWithoutPositionOrSupportKeepsItsRef(t *testing.T) {
	g := New(10)
	door := world.Detection{Name: "front_door", Class: "door", Camera: "front", Room: "hall", Visible: true}
	for turn := 1; turn <= 10; turn++ {
		d := door
		if turn%2 == 0 {
			d.Camera = "rear" // another camera: still the one door
		}
		g.Update(&world.Observation{Detections: []world.Detection{d}}, turn, "observe")
	}
	if got := refsOf(g, "front_door"); !slices.Equal(got, []string{"obj:front_door"}) {
		t.Fatalf("refs after ten sightings: %v, want one", got)
	}
	// Two doors of one name in one observation are two refs, and keep them.
	g.Update(&world.Observation{Detections: []world.Detection{door, door}}, 11, "observe")
	g.Update(&world.Observation{Detections: []world.Detection{door, door}}, 12, "observe")
	if got := refsOf(g, "front_door"); !slices.Equal(got, []string{"obj:front_door", "obj:front_door#2"}) {
		t.Fatalf("two doors seen together: %v", got)
	}
	// A door of that name in another room is another door.
	other := door
	other.Room = "garage"
	g.Update(&world.Observation{Detections: []world.Detection{other}}, 13, "observe")
	if n := len(refsOf(g, "front_door")); n != 3 {
		t.Fatalf("a front_door in the garage: %d refs, want 3", n)
	}
}

// A back-end's stable id decides identity: the object of an id keeps its ref
// wherever it is seen, and two ids are two refs even at one spot.
func TestDetectionIDKeepsIdentity(t *testing.T) {
	g := New(10)
	person := func(id string, x float64) world.Detection {
		return world.Detection{ID: id, Name: "person", Class: "person", Camera: "front", Position: pt(x, 0)}
	}
	g.Update(&world.Observation{Detections: []world.Detection{person("track-7", 1), person("track-9", 5)}}, 1, "observe")
	// They swap places (3 m apart, beyond the match radius): ids win over
	// positions, and the order of the detections does not matter.
	g.Update(&world.Observation{Detections: []world.Detection{person("track-9", 1), person("track-7", 5)}}, 2, "observe")
	if got := refsOf(g, "person"); !slices.Equal(got, []string{"obj:person", "obj:person#2"}) {
		t.Fatalf("refs: %v", got)
	}
	if e := get(t, g, "obj:person"); e.Position == nil || e.Position.X != 5 {
		t.Fatalf("track-7 (obj:person) moved to x 5: %+v", e)
	}
	if e := get(t, g, "obj:person#2"); e.Position == nil || e.Position.X != 1 {
		t.Fatalf("track-9 (obj:person#2) moved to x 1: %+v", e)
	}
	// Two cameras reporting one id are one sighting; a new id at the spot of
	// a known one is a new object.
	a, b := person("track-7", 5), person("track-7", 5.1)
	b.Camera = "rear"
	g.Update(&world.Observation{Detections: []world.Detection{a, b, person("track-11", 1)}}, 3, "observe")
	if got := refsOf(g, "person"); len(got) != 3 {
		t.Fatalf("after a new track at a known spot: %v, want 3 refs", got)
	}
	if e := get(t, g, "obj:person"); e.Source != "observe/front+rear t3" {
		t.Fatalf("one id seen by two cameras: %+v", e)
	}
}

// A state effect updates the object a name already is (a door the cameras
// saw), not a new container of that name; states beyond drawers are read
// from every state.<group> that maps names to strings.
func TestStatesOfObjects(t *testing.T) {
	g := New(10)
	door := world.Detection{Name: "front_door", Class: "door", Camera: "front", Room: "hall", Visible: true}
	g.Update(&world.Observation{Detections: []world.Detection{door}}, 1, "observe")
	open := compile(t, "open_door", schema.Effect{Set: "state", Of: "args.door", To: "'open'"})
	ops, err := Evaluate(open, &schema.CheckEnv{Args: map[string]any{"door": "front_door"}})
	if err != nil {
		t.Fatal(err)
	}
	lines, err := g.Apply("2/c1", Source{Kind: "call", Tool: "open_door", CallID: "c1", Turn: 2}, ops)
	if err != nil || len(lines) != 1 || lines[0] != "obj:front_door open" {
		t.Fatalf("apply = %q, %v", lines, err)
	}
	if refs := g.Refs(); slices.Contains(refs, "container:front_door") {
		t.Fatalf("a state effect made a second ref for the door: %v", refs)
	}
	if e := get(t, g, "obj:front_door"); e.State != "open" {
		t.Fatalf("door after open_door: %+v", e)
	}
	// The next observation reports the door closed again (state.doors), a
	// light's state and a battery level (not a name → state map): the door
	// takes the state, the light is a new object, the battery is no ref.
	g.Update(&world.Observation{Detections: []world.Detection{door}, State: map[string]any{
		"doors":   map[string]any{"front_door": "closed"},
		"lights":  map[string]any{"hall_lamp": "on"},
		"drawers": map[string]any{"top_drawer": "open"},
		"battery": 0.8,
		"arm":     map[string]any{"joint_temps": map[string]any{"elbow": 41.0}},
	}}, 3, "observe")
	if e := get(t, g, "obj:front_door"); e.State != "closed" {
		t.Fatalf("door after state.doors: %+v", e)
	}
	if e := get(t, g, "obj:hall_lamp"); e.State != "on" {
		t.Fatalf("lamp after state.lights: %+v", e)
	}
	if e := get(t, g, "container:top_drawer"); e.State != "open" {
		t.Fatalf("drawer after state.drawers: %+v", e)
	}
	if got := g.Refs(); len(got) != 4 {
		t.Fatalf("refs %v: want the robot, the door, the lamp and the drawer", got)
	}
	want := "- obj:front_door (door): closed [observe t3], room hall [observe/front t3]"
	if b := g.Brief(BriefLimits{Detailed: 10}); !strings.Contains(b, want) {
		t.Fatalf("Brief lacks %q:\n%s", want, b)
	}
}

// A back-end that reports a door both in detections and in state.doors
// reports one door: one ref, its state and its sighting on one line with
// one stamp, in whichever order the two arrive and however the detection
// places it (a support, a position).
func TestDoorInDetectionsAndStateIsOneObject(t *testing.T) {
	dets := []world.Detection{
		{Name: "front_door", Class: "door", Camera: "front", Room: "hall", Relation: "in", Target: "hall_wall", Visible: true},
		{Name: "front_door", Class: "door", Camera: "front", Room: "hall", Position: pt(2, 3), Visible: true},
		{Name: "front_door", Class: "door"},
	}
	for i, d := range dets {
		g := New(10)
		both := &world.Observation{Detections: []world.Detection{d}, State: map[string]any{"doors": map[string]any{"front_door": "closed"}}}
		g.Update(both, 1, "observe")
		// The door out of view, its state still reported; then seen again.
		g.Update(&world.Observation{State: map[string]any{"doors": map[string]any{"front_door": "open"}}}, 2, "observe")
		g.Update(both, 3, "observe")
		if got := refsOf(g, "front_door"); !slices.Equal(got, []string{"obj:front_door"}) {
			t.Fatalf("detection %d: refs %v, want one door", i, got)
		}
		b := g.Brief(BriefLimits{})
		if strings.Contains(b, "[observe t3] [observe t3]") || strings.Contains(b, "[observe/front t3] [observe/front t3]") {
			t.Fatalf("detection %d: a doubled stamp:\n%s", i, b)
		}
		if !strings.Contains(b, "- obj:front_door (door): closed") {
			t.Fatalf("detection %d: the door's line:\n%s", i, b)
		}
	}
	// A state-only door first, seen with a support later: still one.
	g := New(10)
	g.Update(&world.Observation{State: map[string]any{"doors": map[string]any{"front_door": "closed"}}}, 1, "observe")
	g.Update(&world.Observation{Detections: dets[:1]}, 2, "observe")
	if got := refsOf(g, "front_door"); !slices.Equal(got, []string{"obj:front_door"}) {
		t.Fatalf("state first, then a detection with a support: %v", got)
	}
}

// briefLines are the Brief's lines that name ref (as their subject).
func briefLines(b, ref string) []string {
	var out []string
	for _, l := range strings.Split(b, "\n") {
		if strings.HasPrefix(l, "- "+ref+" ") || strings.HasPrefix(l, "- "+ref+":") || l == "- "+ref {
			out = append(out, l)
		}
	}
	return out
}

// A drawer a back-end reports in one observation both as a detection and
// in state.drawers is one thing: one ref, and one Brief line carrying its
// state and its sighting. So it stays, whichever group reports it first and
// whichever the next observation leaves out.
func TestDrawerInDetectionsAndStateIsOneObject(t *testing.T) {
	drawer := world.Detection{Name: "drawer_top", Class: "drawer", Camera: "front", Room: "kitchen", Position: pt(2, 1), Visible: true}
	far := drawer
	far.Position, far.Room = pt(3.5, 1), "pantry"
	drawers := func(st string) map[string]any { return map[string]any{"drawers": map[string]any{"drawer_top": st}} }
	orders := map[string][]*world.Observation{
		"both at once": {
			{Detections: []world.Detection{drawer}, State: drawers("open")},
			{State: drawers("closed")},
			{Detections: []world.Detection{drawer}, State: drawers("open")},
		},
		"state first": {
			{State: drawers("closed")},
			{Detections: []world.Detection{drawer}},
			{Detections: []world.Detection{drawer}, State: drawers("open")},
		},
		"detection first": {
			{Detections: []world.Detection{drawer}},
			{State: drawers("closed")},
			{Detections: []world.Detection{drawer}, State: drawers("open")},
		},
		// The detector places the drawer a metre off (beyond the match
		// radius, in another room): the state report of this observation
		// still names the one drawer.
		"seen elsewhere": {
			{Detections: []world.Detection{drawer}, State: drawers("closed")},
			{Detections: []world.Detection{far}, State: drawers("closed")},
			{Detections: []world.Detection{drawer}, State: drawers("open")},
		},
	}
	for name, obss := range orders {
		g := New(10)
		for i, o := range obss {
			g.Update(o, i+1, "observe")
			if got := refsOf(g, "drawer_top"); len(got) != 1 {
				t.Fatalf("%s, turn %d: refs %v, want one drawer", name, i+1, got)
			}
		}
		ref := refsOf(g, "drawer_top")[0]
		e := get(t, g, ref)
		if e.State != "open" || e.Position == nil || e.Room != "kitchen" {
			t.Fatalf("%s: %s carries %+v, want its state and its sighting", name, ref, e)
		}
		b := g.Brief(BriefLimits{})
		lines := briefLines(b, ref)
		// Its state's stamp is the observation's, its sighting's the camera's
		// (as a door's).
		want := "- " + ref + " (drawer): open [observe t3], at (2.00, 1.00), room kitchen [observe/front t3]"
		if len(lines) != 1 || lines[0] != want {
			t.Fatalf("%s: the drawer's lines %q, want [%q]:\n%s", name, lines, want, b)
		}
	}
}

// A thing first known as a relation's target (the table a mug is on) and
// then seen by a camera is one thing; so is a drawer a state effect named
// before any camera saw it, and the object the robot holds that its camera
// also sees (in one observation, or held first and seen later in another
// room).
func TestOtherGroupsThenDetectedAreOneThing(t *testing.T) {
	mug := world.Detection{Name: "mug", Class: "cup", Camera: "wrist", Room: "kitchen", Position: pt(1, 1), Visible: true}
	g := New(10)
	g.Update(&world.Observation{Held: "mug", Detections: []world.Detection{mug}}, 1, "observe")
	moved := mug
	moved.Room, moved.Position = "hall", pt(6, 4)
	g.Update(&world.Observation{Held: "mug", Detections: []world.Detection{moved}}, 2, "observe")
	if got := refsOf(g, "mug"); !slices.Equal(got, []string{"obj:mug"}) {
		t.Fatalf("refs %v, want the one held mug", got)
	}
	if e := get(t, g, "obj:mug"); e.Relation != "held" || e.Room != "hall" {
		t.Fatalf("the held mug: %+v", e)
	}

	// Held first (no detection), then a camera sees it as the robot holds it.
	g = New(10)
	g.Update(&world.Observation{Held: "drawer_key"}, 1, "observe")
	g.Update(&world.Observation{Held: "drawer_key", Detections: []world.Detection{{Name: "drawer_key", Camera: "wrist", Position: pt(3, 3)}}}, 2, "observe")
	if got := refsOf(g, "drawer_key"); !slices.Equal(got, []string{"obj:drawer_key"}) {
		t.Fatalf("held then seen: %v", got)
	}

	g = New(10)
	g.Update(&world.Observation{Detections: []world.Detection{{Name: "mug", Camera: "front", Relation: "on", Target: "table", Position: pt(1, 1)}}}, 1, "observe")
	g.Update(&world.Observation{Detections: []world.Detection{{Name: "table", Class: "furniture", Camera: "front", Position: pt(1, 1.2)}}}, 2, "observe")
	g.Update(&world.Observation{Detections: []world.Detection{{Name: "mug", Camera: "front", Relation: "on", Target: "table", Position: pt(1, 1)}}}, 3, "observe")
	var tables []string
	for _, e := range g.Lookup("table") {
		if e.Name == "table" {
			tables = append(tables, e.Ref)
		}
	}
	if len(tables) != 1 {
		t.Fatalf("the table: %v, want one ref", tables)
	}
	if e := get(t, g, "obj:mug"); e.Target != tables[0] {
		t.Fatalf("the mug is on %q, want the table seen", e.Target)
	}

	open := compile(t, "open_drawer", schema.Effect{Set: "state", Of: "args.drawer", To: "'open'"})
	ops, err := Evaluate(open, &schema.CheckEnv{Args: map[string]any{"drawer": "drawer_low"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Apply("4/c1", Source{Kind: "call", Tool: "open_drawer", CallID: "c1", Turn: 4}, ops); err != nil {
		t.Fatal(err)
	}
	g.Update(&world.Observation{Detections: []world.Detection{{Name: "drawer_low", Class: "drawer", Camera: "front", Position: pt(2, 0)}},
		State: map[string]any{"drawers": map[string]any{"drawer_low": "open"}}}, 5, "observe")
	if got := refsOf(g, "drawer_low"); !slices.Equal(got, []string{"container:drawer_low"}) {
		t.Fatalf("the drawer an effect opened, then seen and reported: %v", got)
	}
}
