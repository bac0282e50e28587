package bodysuite_test

import (
	"testing"

	"github.com/thea-harness/thea/engine/body"
)

// An arm back-end reports joints, end_effector and gripper and nothing
// else (no pose, no clearance): that is a whole observation, read by the
// one decoder (world.Decode), and it clears the body's uncertainty after a
// crash; a reply with none of the Observation's fields still does not.
func TestFaultArmObservationClearsUncertainty(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		if _, ok := tr.observeFaults["empty"]; !ok {
			t.Skip("this row's back-end synthesises its own observation, not the fault server's modes")
		}
		self, dir := newFaultDir(t)
		spec := faultSpec(tr, self, dir, "base")
		var evs events
		ts := startFault(t, tr, spec, "base", body.Shared{OnSafety: evs.add})
		lastWords := ""
		if tr.lastWords {
			lastWords = "crashing mid-motion"
		}
		setObserve(t, dir, "empty")
		wantFailure(t, call(t, ts, "crash", `{}`), "crashed during crash", lastWords)
		wantFailure(t, call(t, ts, "observe", `{}`), "no usable observation", "none of the observation fields")
		wantFailure(t, call(t, ts, "move_base", `{"ms":1}`), "uncertain", "crash crashed")

		setObserve(t, dir, "arm")
		wantSuccess(t, call(t, ts, "observe", `{}`))
		if n := evs.count(body.SafetyUncertaintyCleared, ""); n != 1 {
			t.Fatalf("the arm's observation cleared uncertainty %d times, want once: %v", n, evs.kinds())
		}
		wantSuccess(t, call(t, ts, "move_base", `{"ms":1}`))
		noOverlaps(t, dir)
	})
}
