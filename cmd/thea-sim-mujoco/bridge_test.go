//go:build mujoco && cgo

package main

import (
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/thea-harness/thea/internal/simtools/simtoolstest"
	"github.com/thea-harness/thea/world"
)

// simClient starts thea-sim-mujoco (this test binary under that name) with
// args and initialises an MCP session with it.
func simClient(t *testing.T, args ...string) *client.Client {
	t.Helper()
	simOnPath(t)
	exe, err := exec.LookPath("thea-sim-mujoco")
	if err != nil {
		t.Fatal(err)
	}
	return simtoolstest.Start(t, "mujoco-test", exe, nil, args...)
}

// call invokes a tool and returns its JSON envelope and the whole result.
func call(t *testing.T, c *client.Client, tool string, args map[string]any) (map[string]any, *mcp.CallToolResult) {
	t.Helper()
	return simtoolstest.Call(t, c, tool, args)
}

func status(env map[string]any) string {
	v, _ := env["verdict"].(map[string]any)
	s, _ := v["status"].(string)
	return s
}

// The benchmark bridge: reset {seed, task} starts an episode, the task's
// own success is the judge's verdict with no arguments, and a seed gives
// the same scene every time it is reset to.
func TestResetAndJudge(t *testing.T) {
	c := simClient(t, "--friction", "0.5", "--mass", "0.25")
	mugAt := func() any {
		obs, _ := call(t, c, "observe", nil)
		return obs["detections"].([]any)[0].(map[string]any)["position"]
	}
	if env, _ := call(t, c, "reset", map[string]any{"seed": 3, "task": "lift_mug"}); env["success"] != true {
		t.Fatalf("reset: %v", env)
	}
	at3 := mugAt()
	if env, _ := call(t, c, "judge", nil); status(env) != "failure" {
		t.Fatalf("judge before the grasp: %v, want failure", env)
	}
	if env, _ := call(t, c, "pick_up", map[string]any{"object_name": "mug"}); env["success"] != true {
		t.Fatalf("pick_up: %v", env)
	}
	if env, _ := call(t, c, "judge", nil); status(env) != "success" {
		t.Fatalf("judge of lift_mug after the grasp: %v, want success", env)
	}
	if env, _ := call(t, c, "judge", map[string]any{"task": "mug_in_bin"}); status(env) != "failure" {
		t.Fatalf("judge of mug_in_bin while holding: %v, want failure", env)
	}
	call(t, c, "reset", map[string]any{"seed": 4})
	if at4 := mugAt(); at4 == nil || jsonOf(t, at4) == jsonOf(t, at3) {
		t.Errorf("seeds 3 and 4 put the mug at %v and %v", at3, at4)
	}
	call(t, c, "reset", map[string]any{"seed": 3})
	if again := mugAt(); jsonOf(t, again) != jsonOf(t, at3) {
		t.Errorf("seed 3 again put the mug at %v, first %v", again, at3)
	}
	for _, bad := range []map[string]any{{"task": "lift_mug"}, {"seed": 3, "task": "juggle"}} {
		if env, res := call(t, c, "reset", bad); env["success"] != false || !res.IsError {
			t.Errorf("reset %v: %v, want a failure", bad, env)
		}
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// An observation follows the documented contract (the harness's own
// decoder reads it) and, with --render, carries each camera as a PNG the
// right way up: the light curtain, on the operator's side, tints the
// bottom of the overhead image, not its top.
func TestObservationAndCameras(t *testing.T) {
	c := simClient(t, "--render", "--seed", "7")
	env, res := call(t, c, "observe", nil)
	raw, _ := json.Marshal(env)
	obs, err := world.Decode(raw)
	if err != nil {
		t.Fatalf("the harness cannot decode the observation: %v\n%s", err, raw)
	}
	if obs.Gripper == nil || obs.EndEffector == nil || len(obs.Detections) != 3 {
		t.Errorf("observation lacks gripper, end effector or detections: %s", raw)
	}
	if len(res.Content) != 3 {
		t.Fatalf("%d contents, want the text and two images", len(res.Content))
	}
	if img, isImg := res.Content[1].(mcp.ImageContent); !isImg || img.Meta == nil || img.Meta.AdditionalFields["camera"] != "overhead" {
		t.Fatalf("second content %T %+v, want the overhead camera's image", res.Content[1], res.Content[1])
	}
	pic := frames(t, res)["overhead"]
	if r := pic.Bounds(); r.Dx() != 320 || r.Dy() != 240 {
		t.Fatalf("image %v, want 320×240", r)
	}
	redness := func(y0, y1 int) float64 {
		sum := 0.0
		for y := y0; y < y1; y++ {
			for x := 100; x < 220; x++ {
				r, g, _, _ := pic.At(x, y).RGBA()
				sum += float64(r) - float64(g)
			}
		}
		return sum / float64((y1-y0)*120)
	}
	top, bottom := redness(0, 10), redness(230, 240)
	if bottom <= top {
		t.Errorf("the curtain's tint: bottom %.0f, top %.0f; want the bottom redder (the image is upside down?)", bottom, top)
	}
}
