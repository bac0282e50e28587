package rosbridge_test

import (
	"errors"
	"github.com/thea-harness/thea/toolsets/rosbridge"
	"strings"
	"testing"
)

// The subscription settings a spec declares reach rosbridge as declared,
// and a fragmented topic still makes an observation.
func TestSubscribeSettingsSent(t *testing.T) {
	p := fake(t)
	sec := section(t, turtlebot)
	obs := sec["observation"].(map[string]any)
	obs["pose"] = map[string]any{"topic": "/odom", "throttle_rate": "100ms", "queue_length": 3, "fragment_size": 128}
	sec["clearance"].(map[string]any)["compression"] = "none"
	r := startSection(t, p.URL, sec)
	wantSuccess(t, r.call(t, "observe", `{}`))
	st := state(t, p.URL)
	found := false
	for _, s := range st.Subscriptions {
		switch s.Topic {
		case "/odom":
			found = true
			if s.ThrottleRate != 100 || s.QueueLength != 3 || s.FragmentSize != 128 || s.Compression != "none" {
				t.Fatalf("odom subscribed as %+v", s)
			}
		case "/scan":
			if s.QueueLength != 1 || s.ThrottleRate != 0 || s.FragmentSize != 0 {
				t.Fatalf("scan subscribed as %+v, want the defaults", s)
			}
		}
	}
	if !found || st.FragmentsSent == 0 {
		t.Fatalf("odom subscribed %v, fragments sent %d", found, st.FragmentsSent)
	}
}

// png and cbor are refused at the field, with the reason; so is a topic
// asked for two ways.
func TestSubscribeRefused(t *testing.T) {
	for _, c := range []struct {
		compression, want string
	}{
		{"png", `compression "png" is refused`},
		{"cbor", "binary CBOR frames"},
		{"zip", `unknown compression "zip"`},
	} {
		sec := section(t, turtlebot)
		sec["clearance"].(map[string]any)["compression"] = c.compression
		err := loadErr(t, sec)
		var fe rosbridge.FieldError
		if !errors.As(err, &fe) || fe.Path != "clearance.compression" || !strings.Contains(fe.Msg, c.want) {
			t.Fatalf("compression %s: %v", c.compression, err)
		}
	}
	sec := section(t, turtlebot)
	obs := sec["observation"].(map[string]any)
	obs["state"] = map[string]any{"speed": map[string]any{"topic": "/odom", "value": "msg.twist.twist.linear.x", "throttle_rate": "1s"}}
	if err := loadErr(t, sec); err == nil || !strings.Contains(err.Error(), "observation.state.speed: /odom is also read at observation.pose") {
		t.Fatalf("a topic asked for two ways: %v", err)
	}
}
