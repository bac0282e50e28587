//go:build mujoco && cgo

package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/thea-harness/thea/cmd/thea/cli"
)

// The light curtain stops motion in the real back-end: the operator's hand
// (a body in the simulation) reaches in after the grasp, the curtain's
// mj_ray reading drops below its width, and the spec's hook blocks the
// place before the arm moves; the mug stays in the gripper.
func TestLightCurtainBlocksMotion(t *testing.T) {
	simOnPath(t)
	for _, tc := range []struct {
		name      string
		extra     []string
		want, not string
	}{
		{"clear", nil, "place: success (by verifier)", "blocked by hook light_curtain"},
		{"broken", []string{"--intrusion-after", "1"}, "place ✗ blocked by hook light_curtain: Someone is reaching into the workcell", "place: success"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := exampleSpec(t, "0.5", tc.extra...)
			var out, errb bytes.Buffer
			code := cli.Execute(t.Context(), strings.NewReader(""), &out, &errb,
				[]string{"run", "--spec", spec, "--seed", "7", "--run-log", t.TempDir(), "Put the mug in the bin"})
			if code != 0 {
				t.Fatalf("thea run exit %d\n%s\n%s", code, out.String(), errb.String())
			}
			if !strings.Contains(out.String(), tc.want) || strings.Contains(out.String(), tc.not) {
				t.Errorf("want %q and not %q in the trace:\n%s", tc.want, tc.not, out.String())
			}
			if !strings.Contains(out.String(), "pick_up: success (by verifier)") {
				t.Errorf("the grasp at friction 0.5 did not hold:\n%s", out.String())
			}
		})
	}
}
