package graph_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/toolsets/rosbridge/graph"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// Sampling the fake arm: /tf_static's latched transforms and a few /tf
// messages, the joint states, the curtain's value now.
func TestSampleTopics(t *testing.T) {
	url, _ := sampleArm(t, nil)
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(30*time.Second))
	defer cancel()
	got, err := graph.SampleTopics(ctx, url, nil, []graph.SampleRequest{
		{Topic: "/tf_static", Type: "tf2_msgs/msg/TFMessage", Count: 1, Keep: 10},
		{Topic: "/tf", Type: "tf2_msgs/msg/TFMessage", Count: 3},
		{Topic: "/joint_states", Type: "sensor_msgs/msg/JointState", Count: 1},
		{Topic: "/safety/light_curtain", Type: "std_msgs/msg/Bool", Count: 1},
	}, testtime.Scale(10*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if len(got["/tf_static"]) != 1 || !strings.Contains(string(got["/tf_static"][0]), `"child_frame_id":"base_link"`) {
		t.Errorf("/tf_static: %s", got["/tf_static"])
	}
	if len(got["/tf"]) != 3 || !strings.Contains(string(got["/tf"][0]), `"child_frame_id":"tool0"`) {
		t.Errorf("/tf: %d messages", len(got["/tf"]))
	}
	if len(got["/joint_states"]) != 1 || len(got["/safety/light_curtain"]) != 1 || string(got["/safety/light_curtain"][0]) != `{"data":false}` {
		t.Errorf("joints %s, curtain %s", got["/joint_states"], got["/safety/light_curtain"])
	}
}

func sampleArm(t *testing.T, extra []rosbridgetest.Extra) (string, *rosbridgetest.Server) {
	t.Helper()
	srv, err := rosbridgetest.Start(t.Context(), "127.0.0.1:0", rosbridgetest.Options{Robot: rosbridgetest.RobotArm, Extra: extra})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv.URL(), srv
}

// A topic that never speaks is absent, and the call ends by the window,
// not before; a message too large for a sample (one the fake did send
// meanwhile) is skipped.
func TestSampleTopicsSilentAndHuge(t *testing.T) {
	huge := rosbridgetest.Extra{Topic: "/huge", Type: "std_msgs/msg/String", Every: 1,
		Msg: json.RawMessage(`{"data": "` + strings.Repeat("x", 300<<10) + `"}`)}
	url, srv := sampleArm(t, []rosbridgetest.Extra{huge})
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(30*time.Second))
	defer cancel()
	const window = time.Second
	start := time.Now()
	got, err := graph.SampleTopics(ctx, url, nil, []graph.SampleRequest{
		{Topic: "/silent", Type: "std_msgs/msg/Bool", Count: 1},
		{Topic: "/huge", Type: "std_msgs/msg/String", Count: 1},
	}, window)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < window {
		t.Errorf("returned after %v with a silent topic, before the %v window", took, window)
	}
	if len(got) != 0 {
		t.Errorf("sampled %v", got)
	}
	if n := srv.State().Published["/huge"]; n == 0 {
		t.Fatal("the fake sent no large message within the window: the test proves nothing")
	}
}

// When every topic speaks, sampling ends as soon as each has its Count,
// long before the window.
func TestSampleTopicsEndsEarly(t *testing.T) {
	srv, err := rosbridgetest.Start(t.Context(), "127.0.0.1:0", rosbridgetest.Options{Robot: rosbridgetest.RobotArm})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(30*time.Second))
	defer cancel()
	start := time.Now()
	got, err := graph.SampleTopics(ctx, srv.URL(), nil, []graph.SampleRequest{
		{Topic: "/joint_states", Type: "sensor_msgs/msg/JointState", Count: 1},
		{Topic: "/tf_static", Type: "tf2_msgs/msg/TFMessage", Count: 1},
	}, time.Hour)
	if err != nil || len(got) != 2 {
		t.Fatalf("%v: %v", got, err)
	}
	if took := time.Since(start); took > testtime.Scale(20*time.Second) {
		t.Errorf("took %v", took)
	}
}
