package rosbridge_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/scenegraph"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/world"
)

// A mobile manipulator on rosbridge (the fake in a real subprocess) whose
// detector sees the top drawer and whose drawer sensor reports it in
// state.drawers, in every observation: the Scene Graph keeps one ref for
// the drawer, and the Brief the model reads has one line for it, with its
// state and its sighting.
func TestRosbridgeDrawerDetectedAndReportedIsOneObject(t *testing.T) {
	topics := strings.Replace(strings.Replace(armTopics, `"class_id": "mug"`, `"class_id": "drawer_top"`, 1),
		"[", `[
 {"topic": "/drawer_top/state", "type": "std_msgs/msg/String", "every": 2, "msg": {"data": "open"}},`, 1)
	p := armFake(t, topics)
	rb := armSection(t, testtime.Scale(5*time.Second).String())
	obsCfg := rb["observation"].(map[string]any)
	obsCfg["state"].(map[string]any)["drawers"] = map[string]any{"topic": "/drawer_top/state", "value": `{"drawer_top": msg.data}`}
	r := startSection(t, p.URL, rb)
	g := scenegraph.New(10)
	for turn := 1; turn <= 3; turn++ {
		env := r.call(t, "observe", `{}`)
		wantSuccess(t, env)
		b, err := json.Marshal(env.Value)
		if err != nil {
			t.Fatal(err)
		}
		var obs world.Observation
		if err := json.Unmarshal(b, &obs); err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
		if len(obs.Detections) != 1 || obs.Detections[0].Name != "drawer_top" {
			t.Fatalf("turn %d: detections %+v, want the drawer", turn, obs.Detections)
		}
		if st, _ := obs.State["drawers"].(map[string]any); st["drawer_top"] != "open" {
			t.Fatalf("turn %d: state %v, want state.drawers.drawer_top open", turn, obs.State)
		}
		g.Update(&obs, turn, "observe")
	}
	var refs []string
	for _, e := range g.Lookup("drawer_top") {
		if e.Name == "drawer_top" {
			refs = append(refs, e.Ref)
		}
	}
	brief := g.Brief(scenegraph.BriefLimits{})
	if len(refs) != 1 {
		t.Fatalf("refs %v, want one drawer:\n%s", refs, brief)
	}
	want := "- " + refs[0] + ": open [observe t3], at (1.20, 0.50) [observe/front t3]"
	if strings.Count(brief, "drawer_top:") != 1 || !strings.Contains(brief, want) {
		t.Fatalf("the drawer's Brief line, want %q:\n%s", want, brief)
	}
}
