package rosbridgetest_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

func startArm(t *testing.T, f rosbridgetest.Faults) (*rosbridgetest.Server, *wire.Client) {
	t.Helper()
	srv, err := rosbridgetest.Start(t.Context(), "127.0.0.1:0", rosbridgetest.Options{Robot: rosbridgetest.RobotArm,
		ArmMotion: 200 * time.Millisecond, Tick: 10 * time.Millisecond, Faults: f})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	cl, err := wire.Dial(t.Context(), wire.Options{URL: srv.URL()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Close() })
	return srv, cl
}

func armGoal(t *testing.T, cl *wire.Client, action, typ string, args any) *wire.Goal {
	t.Helper()
	g, err := cl.SendGoal(t.Context(), wire.GoalRequest{Action: action, ActionType: typ, Args: args})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func waitResult(t *testing.T, g *wire.Goal) (wire.Result, map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(10*time.Second))
	defer cancel()
	r, err := g.Wait(ctx)
	if err != nil {
		t.Fatalf("goal on %s: %v", g.Action(), err)
	}
	var v map[string]any
	_ = json.Unmarshal(r.Values, &v)
	return r, v
}

// The arm's skills change its cell: the mug is picked, held, then placed
// in the bin; a pick of something absent answers SUCCEEDED with success
// false, as skill servers do.
func TestArmPickAndPlace(t *testing.T) {
	srv, cl := startArm(t, rosbridgetest.Faults{})
	r, v := waitResult(t, armGoal(t, cl, rosbridgetest.ActionPick, rosbridgetest.TypePick, map[string]any{"object": "mug"}))
	if r.Status != wire.StatusSucceeded || v["success"] != true {
		t.Fatalf("pick: %v %v", r.Status, v)
	}
	if st := srv.State().Arm; st.Mug != "gripper" {
		t.Fatalf("after the pick the mug is on the %s", st.Mug)
	}
	r, v = waitResult(t, armGoal(t, cl, rosbridgetest.ActionPick, rosbridgetest.TypePick, map[string]any{"object": "cup"}))
	if r.Status != wire.StatusSucceeded || v["success"] != false {
		t.Fatalf("pick of a cup: %v %v", r.Status, v)
	}
	r, v = waitResult(t, armGoal(t, cl, rosbridgetest.ActionPlace, rosbridgetest.TypePlace, map[string]any{"target": "bin"}))
	if r.Status != wire.StatusSucceeded || v["success"] != true {
		t.Fatalf("place: %v %v", r.Status, v)
	}
	if st := srv.State().Arm; st.Mug != "bin" || st.Moving {
		t.Fatalf("after the place: %+v", st)
	}
	traj := map[string]any{"trajectory": map[string]any{"joint_names": []string{"shoulder_pan_joint", "elbow_joint"},
		"points": []any{map[string]any{"positions": []float64{0.5, 1.0}, "time_from_start": map[string]any{"sec": 0, "nanosec": 100000000}}}}}
	r, v = waitResult(t, armGoal(t, cl, rosbridgetest.ActionTrajectory, rosbridgetest.TypeFollowJointTraject, traj))
	if r.Status != wire.StatusSucceeded || v["error_code"] != 0.0 {
		t.Fatalf("trajectory: %v %v", r.Status, v)
	}
	if j := srv.State().Arm.Joints; j[0] != 0.5 || j[2] != 1.0 {
		t.Fatalf("joints after the trajectory: %v", j)
	}
	r, v = waitResult(t, armGoal(t, cl, rosbridgetest.ActionGripper, rosbridgetest.TypeGripperCommand, map[string]any{"command": map[string]any{"position": 0.0, "max_effort": 20.0}}))
	if r.Status != wire.StatusSucceeded || v["reached_goal"] != true {
		t.Fatalf("gripper: %v %v", r.Status, v)
	}
}

// With HangArm a goal ignores its cancel and moves on; the dashboard stop
// halts it: it aborts, and the arm stands still.
func TestArmHungGoalEndsOnlyByDashboardStop(t *testing.T) {
	srv, cl := startArm(t, rosbridgetest.Faults{HangArm: true})
	g := armGoal(t, cl, rosbridgetest.ActionPick, rosbridgetest.TypePick, map[string]any{"object": "mug"})
	if err := g.Cancel(t.Context()); err != nil {
		t.Fatal(err)
	}
	testtime.Wait(t, "the cancel ignored", func() bool { return srv.State().CancelsIgnored == 1 })
	st := srv.State()
	if !st.Arm.Moving || len(st.Arm.Goals) != 1 {
		t.Fatalf("the hung goal stopped on its cancel: %+v", st.Arm)
	}
	select {
	case <-g.Done():
		t.Fatal("the hung goal answered before the stop")
	default:
	}
	raw, err := cl.CallService(t.Context(), rosbridgetest.ServiceDashboardStop, map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	var resp map[string]any
	_ = json.Unmarshal(raw, &resp)
	if resp["success"] != true {
		t.Fatalf("dashboard stop answered %s", raw)
	}
	r, v := waitResult(t, g)
	if r.Status != wire.StatusAborted || v["success"] != false {
		t.Fatalf("the stopped goal ended %v %v", r.Status, v)
	}
	st = srv.State()
	if st.Arm.Moving || st.Arm.DashboardStops != 1 || st.Arm.Mug != "table" {
		t.Fatalf("after the stop: %+v", st.Arm)
	}
}

// The cell's sensors publish what the control service sets, and goals
// received with the curtain broken are counted.
func TestArmCellSensors(t *testing.T) {
	srv, cl := startArm(t, rosbridgetest.Faults{})
	for _, s := range []wire.Subscription{{Topic: rosbridgetest.TopicLightCurtain, Type: rosbridgetest.TypeBool},
		{Topic: rosbridgetest.TopicPersonDistance, Type: rosbridgetest.TypeFloat32},
		{Topic: rosbridgetest.TopicDetections, Type: rosbridgetest.TypeDetection3DArray},
		{Topic: rosbridgetest.TopicTFStatic, Type: rosbridgetest.TypeTFMessage}} {
		if err := cl.Subscribe(t.Context(), s); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := cl.CallService(t.Context(), rosbridgetest.ServiceArmCell, map[string]any{"curtain_broken": true, "person_distance": 0.4}); err != nil {
		t.Fatal(err)
	}
	read := func(topic string) map[string]any {
		var v map[string]any
		testtime.Wait(t, "a message on "+topic, func() bool {
			m, ok := cl.Latest(topic)
			return ok && json.Unmarshal(m.Data, &v) == nil && v != nil
		})
		return v
	}
	testtime.Wait(t, "the broken curtain published", func() bool { return read(rosbridgetest.TopicLightCurtain)["data"] == true })
	testtime.Wait(t, "the person's distance published", func() bool { return read(rosbridgetest.TopicPersonDistance)["data"] == 0.4 })
	dets, _ := read(rosbridgetest.TopicDetections)["detections"].([]any)
	if len(dets) != 2 {
		t.Fatalf("detections: %v", dets)
	}
	if tf, _ := read(rosbridgetest.TopicTFStatic)["transforms"].([]any); len(tf) != 3 {
		t.Fatalf("tf_static: %v", tf)
	}
	waitResult(t, armGoal(t, cl, rosbridgetest.ActionPick, rosbridgetest.TypePick, map[string]any{"object": "mug"}))
	if n := srv.State().Arm.GoalsWhileCurtainBroken; n != 1 {
		t.Fatalf("goals while the curtain was broken: %d", n)
	}
}

// rosapi describes the arm's graph: every topic with its type, the action
// servers and their types, the dashboard stop's type, and the definitions
// of the arm's messages, goals and results (a custom package among them).
func TestArmRosapi(t *testing.T) {
	_, cl := startArm(t, rosbridgetest.Faults{})
	call := func(service string, args any) map[string]any {
		t.Helper()
		raw, err := cl.CallService(t.Context(), service, args)
		if err != nil {
			t.Fatalf("%s: %v", service, err)
		}
		var v map[string]any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	for topic, typ := range map[string]string{rosbridgetest.TopicJointStates: rosbridgetest.TypeJointState,
		rosbridgetest.TopicTF: rosbridgetest.TypeTFMessage, rosbridgetest.TopicTFStatic: rosbridgetest.TypeTFMessage,
		rosbridgetest.TopicWristCamera: rosbridgetest.TypeImage, rosbridgetest.TopicSceneCamera: rosbridgetest.TypeCompressedImage,
		rosbridgetest.TopicDetections: rosbridgetest.TypeDetection3DArray, rosbridgetest.TopicLightCurtain: rosbridgetest.TypeBool,
		rosbridgetest.TopicPersonDistance: rosbridgetest.TypeFloat32} {
		if got := call("/rosapi/topic_type", map[string]any{"topic": topic})["type"]; got != typ {
			t.Errorf("%s: type %v, want %s", topic, got, typ)
		}
	}
	if got := call("/rosapi/topic_type", map[string]any{"topic": rosbridgetest.TopicScan})["type"]; got != "" {
		t.Errorf("the arm has a /scan of type %v", got)
	}
	servers, _ := call("/rosapi/action_servers", nil)["action_servers"].([]any)
	if len(servers) != 4 {
		t.Errorf("action servers: %v", servers)
	}
	if got := call("/rosapi/action_type", map[string]any{"action": rosbridgetest.ActionTrajectory})["type"]; got != rosbridgetest.TypeFollowJointTraject {
		t.Errorf("trajectory action type %v", got)
	}
	if got := call("/rosapi/service_type", map[string]any{"service": rosbridgetest.ServiceDashboardStop})["type"]; got != rosbridgetest.TypeTrigger {
		t.Errorf("dashboard stop type %v", got)
	}
	for _, tc := range []struct {
		service, typ string
		defs         int // the root and the message types inside it
	}{
		{"/rosapi/action_goal_details", rosbridgetest.TypeFollowJointTraject, 7},
		{"/rosapi/action_result_details", rosbridgetest.TypePick, 1},
		{"/rosapi/message_details", rosbridgetest.TypeDetection3DArray, 12},
	} {
		defs, _ := call(tc.service, map[string]any{"type": tc.typ})["typedefs"].([]any)
		if len(defs) != tc.defs {
			t.Errorf("%s of %s: %d typedefs, want %d: %v", tc.service, tc.typ, len(defs), tc.defs, defs)
		}
	}
	for _, typ := range []string{"control_msgs/action/GripperCommand", rosbridgetest.TypePlace} {
		if defs, _ := call("/rosapi/action_goal_details", map[string]any{"type": typ})["typedefs"].([]any); len(defs) == 0 {
			t.Errorf("no goal typedefs of %s", typ)
		}
	}
}
