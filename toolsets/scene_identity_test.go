package toolsets

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/scenegraph"
	"github.com/thea-harness/thea/toolsets/internal/testserver"
	"github.com/thea-harness/thea/world"
)

// A mobile manipulator's MCP back-end (a real subprocess) reports a drawer
// both as a detection and in state.drawers, a door as a detection and in
// state.doors, and the mug it holds as a detection and as held, every
// turn: the Scene Graph keeps one ref for each, and the Brief the model
// reads has one line for each, carrying both facts.
func TestMCPObservationOneIdentityPerThing(t *testing.T) {
	f := newFixture(t)
	f.spec.Toolsets["sim"].Config.(MCPConfig).Env[testserver.SceneEnv] = "1"
	ts := f.start(t)
	g := scenegraph.New(10)
	for turn := 1; turn <= 3; turn++ {
		env := call(t, ts, "observe_scene", `{}`)
		wantSuccess(t, env)
		// The reference decode of an observation (the observe stage's fast
		// path gives the same Observation).
		b, err := json.Marshal(env.Value)
		if err != nil {
			t.Fatal(err)
		}
		var obs world.Observation
		if err := json.Unmarshal(b, &obs); err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
		g.Update(&obs, turn, "observe_scene")
	}
	brief := g.Brief(scenegraph.BriefLimits{})
	for _, c := range []struct{ name, want string }{
		{"drawer_top", "open"},
		{"front_door", "closed"},
		{"mug", "held by robot"},
	} {
		var refs []string
		for _, e := range g.Lookup(c.name) {
			if e.Name == c.name {
				refs = append(refs, e.Ref)
			}
		}
		if len(refs) != 1 {
			t.Fatalf("%s: refs %v, want one:\n%s", c.name, refs, brief)
		}
		var lines []string
		for _, l := range strings.Split(brief, "\n") {
			if strings.HasPrefix(l, "- "+refs[0]+" ") || strings.HasPrefix(l, "- "+refs[0]+":") {
				lines = append(lines, l)
			}
		}
		// A held thing is where the robot is: its line states no room of
		// its own (the robot's line does).
		if len(lines) != 1 || !strings.Contains(lines[0], c.want) || strings.Contains(lines[0], "room kitchen") == (c.name == "mug") {
			t.Fatalf("%s: Brief lines %q, want one with %q and its sighting:\n%s", c.name, lines, c.want, brief)
		}
	}
	if !strings.Contains(brief, "- container:drawer_top (drawer): open [observe_scene t3], in place:cabinet, at (1.20, 1.40), room kitchen [observe_scene/head t3]") {
		t.Fatalf("the drawer's line:\n%s", brief)
	}
}
