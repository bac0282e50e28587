package toolsets

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/channels"
	"github.com/thea-harness/thea/engine/scenegraph"
	"github.com/thea-harness/thea/world"
)

// twoMugs is a graph with two mugs (two refs of one name) and one image per
// camera.
func twoMugs() *scenegraph.Graph {
	g := scenegraph.New(10)
	mug := func(x, y float64, target string) world.Detection {
		return world.Detection{Name: "mug", Class: "mug", Camera: "head", Relation: "on", Target: target, Position: &world.Point{X: x, Y: y}}
	}
	g.Update(&world.Observation{Pose: &world.Pose{X: 10, Y: 2.5, Room: "kitchen"},
		Detections: []world.Detection{mug(11.2, 2.5, "table"), mug(12.5, 4.6, "cabinet")},
		Images:     []world.Image{{Camera: "head", MIME: "image/png", Data: []byte("head-png")}}}, 1, "observe")
	return g
}

func TestGetObjectRelations(t *testing.T) {
	ts := newBuiltin(t, builtinSpec(), &fakeSession{user: channels.NewScript(), graph: twoMugs()})
	env := call(t, ts, "get_object_relations", `{"ref":"obj:mug#2"}`)
	wantSuccess(t, env)
	rels, _ := env.Value["relations"].([]any)
	if env.Value["count"] != 1 || len(rels) != 1 {
		t.Fatalf("relations = %v", env.Value)
	}
	r := rels[0].(map[string]any)
	src, _ := r["source"].(map[string]any)
	if r["kind"] != "on" || r["target"] != "place:cabinet" || src["kind"] != "observation" || src["camera"] != "head" || src["turn"] != 1.0 {
		t.Fatalf("relation = %v", r)
	}
	// The place sees the relation from its side; a kind filter applies.
	env = call(t, ts, "get_object_relations", `{"ref":"place:table","relation":"in"}`)
	wantSuccess(t, env)
	if env.Value["count"] != 0 {
		t.Fatalf("filtered = %v", env.Value)
	}
	wantFailure(t, call(t, ts, "get_object_relations", `{"ref":"obj:cup"}`), `unknown scene-graph ref "obj:cup"`, "known refs: robot, obj:mug")
	wantFailure(t, call(t, ts, "get_object_relations", `{"ref":"obj:mug","relation":"under"}`), `unknown relation "under"`)
	wantFailure(t, call(t, ts, "get_object_relations", `{"ref":""}`), `argument "ref"`)
}

func TestGetImage(t *testing.T) {
	ts := newBuiltin(t, builtinSpec(), &fakeSession{user: channels.NewScript(), graph: twoMugs()})
	env := call(t, ts, "get_image", `{"ref":"obj:mug"}`)
	wantSuccess(t, env)
	if env.Value["camera"] != "head" || len(env.Images) != 1 || string(env.Images[0].Data) != "head-png" {
		t.Fatalf("get_image = %v (%d images)", env.Value, len(env.Images))
	}
	wantFailure(t, call(t, ts, "get_image", `{"ref":"obj:ghost"}`), `unknown scene-graph ref "obj:ghost"`)
	if env := call(t, ts, "get_image", `{"ref":"robot"}`); env.Success || !strings.Contains(env.Reason, "never been seen") {
		t.Fatalf("get_image robot = %+v", env)
	}
}
