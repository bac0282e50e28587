package cli_test

import (
	"context"
	"testing"
	"time"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/toolsets/rosbridge"
)

// The example's stop path: a pick whose skill server ignores its cancel
// (the fake's -hang-arm: the goal moves for ever) is stopped by the
// operator while it moves (the task's context cancelled, as Ctrl-C and a
// served stop do): the cancel is ignored, and after cancel_timeout the
// declared stop, the dashboard's, halts the arm. Its outcome is an event of
// the task; the fake saw one stop and no motion left.
func TestROSArmStopEndsAHungPick(t *testing.T) {
	spec, url := rosArmCopy(t, "-hang-arm")
	h, _ := rosArmSession(t, spec)
	c := dialCell(t, url)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if st, err := c.stateErr(); err == nil && len(st.Arm.Goals) > 0 {
				cancel() // the operator's stop, with the pick moving
				return
			}
			time.Sleep(2 * time.Millisecond)
		}
	}()
	var evs []runlog.Event
	for ev := range h.RunStream(ctx, rosArmInstruction) {
		evs = append(evs, ev)
	}

	var stop *runlog.Event
	for i, ev := range evs {
		if ev.Kind == runlog.EventSafety && ev.Safety == rosbridge.SafetyDeclaredStop {
			stop = &evs[i]
		}
	}
	if stop == nil || stop.Tool != "pick" || stop.Stop == nil || !stop.Stop.OK || stop.Stop.Via != runlog.StopViaDeclared {
		t.Fatalf("no successful declared stop of the pick in the task's events: %+v", stop)
	}
	if done := doneOf(evs); done == nil || done.Reason != runlog.DoneCancelled {
		t.Errorf("done = %+v, want cancelled", done)
	}
	st := c.state()
	if st.Arm.DashboardStops != 1 || st.Arm.Moving || len(st.Arm.Goals) != 0 || st.MaxMotions != 1 || st.Arm.Mug != "table" {
		t.Fatalf("fake arm: %d dashboard stops, moving %v (%d goals), most motions at once %d, mug %q",
			st.Arm.DashboardStops, st.Arm.Moving, len(st.Arm.Goals), st.MaxMotions, st.Arm.Mug)
	}
}
