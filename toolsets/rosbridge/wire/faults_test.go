package wire_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// The fake's misbehaviour switches, as a client sees them: what the
// rosbridge kind's safety layer must cope with.

func TestSubprocessIgnoresCancel(t *testing.T) {
	p := startChild(t, "-ignore-cancel")
	c := dial(t, wire.Options{URL: p.URL})
	g, err := c.SendGoal(wait(t), navGoal(1.2, 0))
	if err != nil {
		t.Fatal(err)
	}
	firstFeedback(t, g)
	if err := g.Cancel(wait(t)); err != nil {
		t.Fatal(err)
	}
	// The cancel was ignored: the goal drives on and succeeds. Only a
	// stop path beyond cancel (the kill path) could have stopped it.
	r, err := g.Wait(wait(t))
	if err != nil || r.Status != wire.StatusSucceeded {
		t.Fatalf("%+v, %v", r, err)
	}
	if st := remoteState(t, c); st.CancelsIgnored != 1 || st.GoalsCanceled != 0 {
		t.Errorf("cancels ignored %d, canceled %d", st.CancelsIgnored, st.GoalsCanceled)
	}
}

func TestNoResultLeavesTheGoalToItsCallersContext(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{Faults: rosbridgetest.Faults{NoResult: true}})
	c := dial(t, wire.Options{URL: srv.URL()})
	g, err := c.SendGoal(wait(t), navGoal(0.3, 0))
	if err != nil {
		t.Fatal(err)
	}
	until(t, c, "the goal to end on the robot", func() bool { return srv.State().GoalsSucceeded == 1 })
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(100*time.Millisecond))
	defer cancel()
	if _, err := g.Wait(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("wait for a result that never comes: %v", err)
	}
	select {
	case <-g.Done():
		t.Error("the goal counts as done with no result")
	default:
	}
}

func TestKeepMovingAfterCancel(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{Faults: rosbridgetest.Faults{KeepMovingAfterCancel: true}})
	c := dial(t, wire.Options{URL: srv.URL()})
	g, err := c.SendGoal(wait(t), navGoal(3, 0))
	if err != nil {
		t.Fatal(err)
	}
	firstFeedback(t, g)
	if err := g.Cancel(wait(t)); err != nil {
		t.Fatal(err)
	}
	r, err := g.Wait(wait(t))
	if err != nil || r.Status != wire.StatusCanceled {
		t.Fatalf("%+v, %v", r, err)
	}
	// The result says canceled; the robot says otherwise.
	st := srv.State()
	if !st.Moving || len(st.Goals) != 1 || !st.Goals[0].Canceled {
		t.Fatalf("after a canceled result: moving %v, goals %+v", st.Moving, st.Goals)
	}
	// A new goal now means two motions at once, which the fake records.
	g2, err := c.SendGoal(wait(t), navGoal(0.2, 0.2))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g2.Wait(wait(t)); err != nil {
		t.Fatal(err)
	}
	if st := srv.State(); st.MaxMotions != 2 {
		t.Errorf("max motions %d, want 2", st.MaxMotions)
	}
}

func TestCancelGoalServiceAnswersUUIDsInBase64(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{})
	c := dial(t, wire.Options{URL: srv.URL()})
	g, err := c.SendGoal(wait(t), navGoal(3, 0))
	if err != nil {
		t.Fatal(err)
	}
	firstFeedback(t, g)
	// What roslib's cancelAllGoals calls: the action's own cancel service.
	raw, err := c.CallService(wait(t), rosbridgetest.ActionNav+"/_action/cancel_goal", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	var resp struct {
		ReturnCode int `json:"return_code"`
		Canceling  []struct {
			GoalID struct {
				UUID wire.Bytes `json:"uuid"`
			} `json:"goal_id"`
		} `json:"goals_canceling"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	if resp.ReturnCode != 0 || len(resp.Canceling) != 1 || len(resp.Canceling[0].GoalID.UUID) != 16 {
		t.Fatalf("cancel_goal: %s", raw)
	}
	if r, err := g.Wait(wait(t)); err != nil || r.Status != wire.StatusCanceled {
		t.Errorf("goal: %+v, %v", r, err)
	}
	// A uuid sent as a list of numbers is read too; an unknown one cancels
	// nothing.
	uuid := make([]int, 16)
	uuid[0] = 7
	raw, err = c.CallService(wait(t), rosbridgetest.ActionNav+"/_action/cancel_goal",
		map[string]any{"goal_info": map[string]any{"goal_id": map[string]any{"uuid": uuid}}})
	if err != nil || json.Unmarshal(raw, &resp) != nil || resp.ReturnCode != 2 {
		t.Errorf("cancel of an unknown goal: %s, %v", raw, err)
	}
}
