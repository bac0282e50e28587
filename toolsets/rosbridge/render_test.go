package rosbridge_test

import (
	"strings"
	"testing"
)

// The observation's summary and a reason read from a result render maps
// and lists as text, keys in order, never Go's map[...].
func TestSummaryRendersValues(t *testing.T) {
	f := fake(t)
	rb := withState(t, "detection", "{score: msg.percentage, class: 'mug', seen: ['cup', 'mug']}")
	r := startSection(t, f.URL, rb)
	env := r.call(t, "observe", `{}`)
	wantSuccess(t, env)
	summary, _ := env.Value["summary"].(string)
	if !strings.Contains(summary, "detection class: mug, score: 0.87, seen: [cup, mug]") || strings.Contains(summary, "map[") {
		t.Errorf("summary %q", summary)
	}

	failing := fake(t, "-skill-fails")
	r = startSection(t, failing.URL, skillSection(t, `"success": "result.success", "reason": "result"`))
	wantFailure(t, r.call(t, "pick", `{"object": "mug"}`), `pick: message: "the gripper closed on nothing: no mug there", success: false`)
}
