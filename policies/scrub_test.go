package policies

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/world"
)

// A judge rarely quotes the post-condition byte for byte: a change of case,
// line breaks or the final full stop must not let it through to the model.
func TestScrubCatchesLooseQuotes(t *testing.T) {
	pc := "The named object is held in the gripper\n  and no longer on its support."
	for _, quote := range []string{
		"The named object is held in the gripper\n  and no longer on its support.",
		"the named object is held in the gripper and no longer on its support",
		"THE NAMED OBJECT IS HELD IN THE GRIPPER,  AND NO LONGER ON ITS SUPPORT!",
	} {
		v := scrub(world.Verdict{Status: "failure", Reason: "not met: " + quote + " (mug on table)", Evidence: quote}, pc)
		for _, s := range []string{v.Reason, v.Evidence} {
			if strings.Contains(strings.ToLower(s), "held in the gripper") {
				t.Errorf("post-condition leaked: %q", s)
			}
		}
		if !strings.Contains(v.Reason, "(mug on table)") {
			t.Errorf("scrub removed more than the quote: %q", v.Reason)
		}
	}
}
