package wire_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// navGoal is a NavigateToPose goal to (x, y).
func navGoal(x, y float64) wire.GoalRequest {
	return wire.GoalRequest{
		Action:     rosbridgetest.ActionNav,
		ActionType: rosbridgetest.TypeNavigateToPose,
		Feedback:   true,
		Args: map[string]any{"pose": map[string]any{
			"header": map[string]any{"frame_id": "map"},
			"pose": map[string]any{
				"position":    map[string]float64{"x": x, "y": y},
				"orientation": map[string]float64{"w": 1},
			},
		}},
	}
}

// firstFeedback waits for a goal's first feedback.
func firstFeedback(t *testing.T, g *wire.Goal) wire.Feedback {
	t.Helper()
	select {
	case f, ok := <-g.Feedback():
		if !ok {
			r, err := g.Wait(wait(t))
			t.Fatalf("goal ended before any feedback: %+v, %v", r, err)
		}
		return f
	case <-wait(t).Done():
		t.Fatal("no feedback")
	}
	return wire.Feedback{}
}

func TestGoalFeedbackAndSuccess(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{})
	c := dial(t, wire.Options{URL: srv.URL()})
	g, err := c.SendGoal(wait(t), navGoal(0.5, 0.2))
	if err != nil {
		t.Fatal(err)
	}
	f := firstFeedback(t, g)
	var fb struct {
		DistanceRemaining float64 `json:"distance_remaining"`
	}
	if err := json.Unmarshal(f.Values, &fb); err != nil || fb.DistanceRemaining <= 0 {
		t.Errorf("feedback %s (%v)", f.Values, err)
	}
	r, err := g.Wait(wait(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != wire.StatusSucceeded || !r.OK || r.Err() != nil {
		t.Errorf("result %+v (err %v)", r, r.Err())
	}
	if st := srv.State(); st.GoalsSucceeded != 1 || st.Moving {
		t.Errorf("state %+v", st)
	}
	if err := g.Cancel(wait(t)); err != nil {
		t.Errorf("cancel of a finished goal: %v (want nil: nothing to cancel)", err)
	}
}

func TestGoalCancelled(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{})
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
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != wire.StatusCanceled || r.Err() == nil || !strings.Contains(r.Err().Error(), "canceled") {
		t.Errorf("result %+v, err %v", r, r.Err())
	}
	if st := srv.State(); st.Moving || st.GoalsCanceled != 1 {
		t.Errorf("after cancel: %+v", st)
	}
}

func TestGoalAbortedAndPreempted(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{})
	c := dial(t, wire.Options{URL: srv.URL()})
	// Outside the map: Nav2 aborts at once.
	g, err := c.SendGoal(wait(t), navGoal(40, 0))
	if err != nil {
		t.Fatal(err)
	}
	r, err := g.Wait(wait(t))
	if err != nil || r.Status != wire.StatusAborted || !strings.Contains(r.Reason(), "outside the map") {
		t.Fatalf("%+v, %v", r, err)
	}
	// A second goal preempts the first: aborted with its reason.
	first, err := c.SendGoal(wait(t), navGoal(3, 0))
	if err != nil {
		t.Fatal(err)
	}
	firstFeedback(t, first)
	second, err := c.SendGoal(wait(t), navGoal(0.3, 0))
	if err != nil {
		t.Fatal(err)
	}
	r, err = first.Wait(wait(t))
	if err != nil || r.Status != wire.StatusAborted || !strings.Contains(r.Reason(), "preempted") {
		t.Errorf("preempted goal: %+v, %v", r, err)
	}
	if r, err := second.Wait(wait(t)); err != nil || r.Status != wire.StatusSucceeded {
		t.Errorf("second goal: %+v, %v", r, err)
	}
	if st := srv.State(); st.MaxMotions != 1 {
		t.Errorf("max motions at once: %d", st.MaxMotions)
	}
}

func TestGoalNotRun(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{})
	c := dial(t, wire.Options{URL: srv.URL()})
	for name, req := range map[string]wire.GoalRequest{
		"no server": {Action: "/fly_to", ActionType: "drone_msgs/action/FlyTo"},
		"wrong type": {Action: rosbridgetest.ActionNav, ActionType: "nav2_msgs/action/FollowPath",
			Args: map[string]any{}},
		"bad field": {Action: rosbridgetest.ActionNav, ActionType: rosbridgetest.TypeNavigateToPose,
			Args: map[string]any{"pose": map[string]any{"pose": map[string]any{"positon": map[string]float64{"x": 1}}}}},
	} {
		g, err := c.SendGoal(wait(t), req)
		if err != nil {
			t.Fatal(err)
		}
		r, err := g.Wait(wait(t))
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"no server": "No action server available", "wrong type": "No action server available",
			"bad field": "does not have a field positon"}[name]
		if r.OK || r.Status != wire.StatusUnknown || !strings.Contains(r.Err().Error(), want) {
			t.Errorf("%s: %+v: %v", name, r, r.Err())
		}
	}
	if _, err := c.SendGoal(wait(t), wire.GoalRequest{Action: "/x"}); err == nil {
		t.Error("a goal without an action type was sent")
	}
}

func TestResultNamingAnotherActionIsRefused(t *testing.T) {
	srv := startScripted(t, func(f map[string]any) [][]byte {
		if f["op"] != "send_action_goal" {
			return nil
		}
		result := func(action string, status int) []byte {
			return mustJSON(t, map[string]any{"op": "action_result", "id": f["id"], "action": action, "status": status, "result": true, "values": map[string]any{}})
		}
		return [][]byte{
			mustJSON(t, map[string]any{"op": "action_feedback", "id": f["id"], "action": "/other", "values": map[string]any{}}),
			result("/other", 4),
			mustJSON(t, map[string]any{"op": "action_result", "id": f["id"], "action": f["action"], "status": "four", "result": true}),
		}
	})
	ev := newEvents()
	c := dial(t, ev.options(srv.URL))
	g, err := c.SendGoal(wait(t), wire.GoalRequest{Action: "/go", ActionType: "x/action/Go", Feedback: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := g.Wait(wait(t))
	if err != nil {
		t.Fatal(err)
	}
	if r.OK || !strings.Contains(r.Reason(), "malformed") {
		t.Errorf("a result with a non-numeric status: %+v", r)
	}
	if got := ev.reasons(); got[wire.GarbageUnmatched] != 2 || got[wire.GarbageBadReply] != 1 {
		t.Errorf("garbage: %v", got)
	}
	if _, ok := <-g.Feedback(); ok {
		t.Error("feedback for another action was delivered")
	}
}
