package rosbridge_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// skillSection declares a pick tool on the fake's skill action; judge is
// its success and reason fields (JSON), or "".
func skillSection(t testing.TB, judge string) map[string]any {
	t.Helper()
	if judge != "" {
		judge = ", " + judge
	}
	return section(t, `{"tools": {"pick": {"description": "Pick an object.",
  "args": {"object": {"type": "string"}},
  "action": {"name": "`+rosbridgetest.ActionSkill+`", "type": "`+rosbridgetest.TypeSkill+`", "goal": "{object: args.object}"`+judge+`}}}}`)
}

// A skill server that answers SUCCEEDED with success: false in its result
// fails the call when the tool judges the result, with the reason expr's
// words; a succeeded skill passes; without a success expr a succeeded goal
// is a success, as before.
func TestActionJudgedByResult(t *testing.T) {
	judge := `"success": "result.success", "reason": "result.message"`
	failing := fake(t, "-skill-fails")
	r := startSection(t, failing.URL, skillSection(t, judge))
	env := r.call(t, "pick", `{"object": "mug"}`)
	wantFailure(t, env, "pick: the gripper closed on nothing: no mug there")
	if env.Value["status"] != "succeeded" {
		t.Errorf("the failure's value keeps the goal's status and result: %v", env.Value)
	}

	// Without a reason expr the failure still says why.
	r = startSection(t, failing.URL, skillSection(t, `"success": "status == 'succeeded' && result.success"`))
	wantFailure(t, r.call(t, "pick", `{"object": "mug"}`), "succeeded, but its result says failure")

	// Not judged: the status alone decides (the default).
	r = startSection(t, failing.URL, skillSection(t, ""))
	wantSuccess(t, r.call(t, "pick", `{"object": "mug"}`))

	working := fake(t)
	r = startSection(t, working.URL, skillSection(t, judge))
	env = r.call(t, "pick", `{"object": "mug"}`)
	wantSuccess(t, env)
	if !strings.Contains(fmt.Sprint(env.Value), "picked mug") {
		t.Errorf("the result is the envelope's value: %v", env.Value)
	}
}

// The judge exprs are checked at load at their fields: success must be a
// bool, and both read only result and status.
func TestActionJudgeChecked(t *testing.T) {
	for judge, want := range map[string]string{
		`"success": "len(result.message)"`: "tools.pick.action.success",
		`"reason": "response.message"`:     "tools.pick.action.reason",
	} {
		err := loadErr(t, skillSection(t, judge))
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error at %s", judge, err, want)
		}
	}
}
