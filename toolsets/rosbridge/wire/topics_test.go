package wire_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

type laserScan struct {
	RangeMin float64         `json:"range_min"`
	RangeMax float64         `json:"range_max"`
	Ranges   json.RawMessage `json:"ranges"`
}

func TestScanNullRangesReadAsNoReturn(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{})
	c := dial(t, wire.Options{URL: srv.URL()})
	ctx := wait(t)
	before := time.Now()
	if err := c.Subscribe(ctx, wire.Subscription{Topic: "/scan", Type: rosbridgetest.TypeLaserScan}); err != nil {
		t.Fatal(err)
	}
	m, err := c.WaitMessage(ctx, "/scan", before)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Received.After(before) || m.Seq != 1 || m.Generation != 1 || m.Topic != "/scan" {
		t.Errorf("message metadata: %+v", m)
	}
	if latest, ok := c.Latest("/scan"); !ok || latest.Seq < m.Seq {
		t.Errorf("Latest: %+v, %v", latest, ok)
	}
	if !strings.Contains(string(m.Data), "null") {
		t.Fatalf("the fake sent no null range: %.200s", m.Data)
	}
	var s laserScan
	if err := json.Unmarshal(m.Data, &s); err != nil {
		t.Fatal(err)
	}
	ranges, err := wire.Floats(s.Ranges)
	if err != nil {
		t.Fatal(err)
	}
	if len(ranges) != 360 {
		t.Fatalf("%d ranges", len(ranges))
	}
	var noReturn, hits int
	for _, r := range ranges {
		switch {
		case math.IsNaN(r):
			noReturn++
		case r >= s.RangeMin && r <= s.RangeMax:
			hits++
		}
	}
	if noReturn == 0 || hits == 0 {
		t.Errorf("%d no-returns and %d hits; want both", noReturn, hits)
	}
}

func TestSubscribeSendsItsOptions(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{})
	c := dial(t, wire.Options{URL: srv.URL()})
	ctx := wait(t)
	err := c.Subscribe(ctx, wire.Subscription{Topic: "odom", Type: "nav_msgs/msg/Odometry",
		ThrottleRate: 100 * time.Millisecond, QueueLength: 2})
	if err != nil {
		t.Fatal(err)
	}
	// The reply uses the name as sent, "odom", and is matched by it.
	if _, err := c.WaitMessage(ctx, "odom", time.Time{}); err != nil {
		t.Fatal(err)
	}
	want := rosbridgetest.SubscriptionState{Topic: "odom", Type: "nav_msgs/msg/Odometry", ThrottleRate: 100, QueueLength: 2, Compression: "none"}
	if got := srv.State().Subscriptions; len(got) != 1 || got[0] != want {
		t.Errorf("subscribe seen by the server: %+v, want %+v", got, want)
	}
	if err := c.Subscribe(ctx, wire.Subscription{Topic: "odom"}); err == nil || !strings.Contains(err.Error(), "already subscribed") {
		t.Errorf("second subscribe: %v", err)
	}
	if err := c.Unsubscribe(ctx, "odom"); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Latest("odom"); ok {
		t.Error("Latest after Unsubscribe still has a message")
	}
	if _, err := c.WaitMessage(ctx, "odom", time.Time{}); err == nil {
		t.Error("WaitMessage on an unsubscribed topic did not fail")
	}
}

func TestCompressionOtherThanNoneIsRefused(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{})
	c := dial(t, wire.Options{URL: srv.URL()})
	for comp, want := range map[string]string{
		"png":  `compression "png" is not supported`,
		"cbor": `compression "cbor" is not supported`,
		"zstd": `unknown compression "zstd"`,
	} {
		err := c.Subscribe(wait(t), wire.Subscription{Topic: "/scan", Compression: comp})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("compression %s: %v, want %q", comp, err, want)
		}
	}
	if n := len(srv.State().Subscriptions); n != 0 {
		t.Errorf("%d refused subscriptions reached the server", n)
	}
}

func TestCameraBytesArriveAsBase64(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{})
	c := dial(t, wire.Options{URL: srv.URL()})
	ctx := wait(t)
	if err := c.Subscribe(ctx, wire.Subscription{Topic: rosbridgetest.TopicCamera, Type: rosbridgetest.TypeCompressedImage}); err != nil {
		t.Fatal(err)
	}
	m, err := c.WaitMessage(ctx, rosbridgetest.TopicCamera, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var img struct {
		Format string     `json:"format"`
		Data   wire.Bytes `json:"data"`
	}
	if err := json.Unmarshal(m.Data, &img); err != nil {
		t.Fatal(err)
	}
	if img.Format != "jpeg" || len(img.Data) < 2 || img.Data[0] != 0xff || img.Data[1] != 0xd8 {
		t.Errorf("format %q, data % x…", img.Format, img.Data[:min(4, len(img.Data))])
	}
}

func TestBatteryNullFieldsDecode(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{})
	c := dial(t, wire.Options{URL: srv.URL()})
	ctx := wait(t)
	if err := c.Subscribe(ctx, wire.Subscription{Topic: rosbridgetest.TopicBattery, Type: rosbridgetest.TypeBatteryState}); err != nil {
		t.Fatal(err)
	}
	m, err := c.WaitMessage(ctx, rosbridgetest.TopicBattery, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var b struct {
		Percentage  wire.Float `json:"percentage"`
		Temperature wire.Float `json:"temperature"`
	}
	if err := json.Unmarshal(m.Data, &b); err != nil {
		t.Fatal(err)
	}
	if !b.Percentage.Valid || b.Percentage.V <= 0 || b.Temperature.Valid {
		t.Errorf("percentage %+v (want a number), temperature %+v (want null)", b.Percentage, b.Temperature)
	}
}

func TestPublishNeedsAdvertiseAndDrivesTheBase(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{})
	c := dial(t, wire.Options{URL: srv.URL()})
	ctx := wait(t)
	twist := map[string]any{"linear": map[string]float64{"x": 0.2}, "angular": map[string]float64{"z": 0.1}}
	if err := c.Publish(ctx, "/cmd_vel", twist); err == nil || !strings.Contains(err.Error(), "advertise it first") {
		t.Fatalf("publish before advertise: %v", err)
	}
	if err := c.Advertise(ctx, "/cmd_vel", rosbridgetest.TypeTwist); err != nil {
		t.Fatal(err)
	}
	if err := c.Advertise(ctx, "/cmd_vel", "std_msgs/msg/String"); err == nil {
		t.Error("advertising a second type was accepted")
	}
	// Our own publish comes back to a subscriber of the same topic, as in
	// ROS: that is when the server has it.
	if err := c.Subscribe(ctx, wire.Subscription{Topic: "/cmd_vel", Type: rosbridgetest.TypeTwist}); err != nil {
		t.Fatal(err)
	}
	sent := time.Now()
	if err := c.Publish(ctx, "/cmd_vel", twist); err != nil {
		t.Fatal(err)
	}
	if _, err := c.WaitMessage(ctx, "/cmd_vel", sent); err != nil {
		t.Fatal(err)
	}
	if st := srv.State(); st.CmdVel != 1 || st.LastCmdVel != [2]float64{0.2, 0.1} {
		t.Errorf("cmd_vel seen: %d, last %v", st.CmdVel, st.LastCmdVel)
	}
	until(t, c, "the base to move", func() bool { return srv.State().Moving })
	if err := c.Publish(ctx, "/cmd_vel", map[string]any{"linear": map[string]float64{"x": 0}}); err != nil {
		t.Fatal(err)
	}
	until(t, c, "the base to stop", func() bool { return !srv.State().Moving })
	if err := c.Unadvertise(ctx, "/cmd_vel"); err != nil {
		t.Fatal(err)
	}
	if err := c.Publish(ctx, "/cmd_vel", twist); err == nil {
		t.Error("publish after unadvertise was accepted")
	}
}

func TestPublishOfAWrongShapeIsDroppedByTheServer(t *testing.T) {
	srv := startFake(t, rosbridgetest.Options{})
	c := dial(t, wire.Options{URL: srv.URL()})
	ctx := wait(t)
	if err := c.Advertise(ctx, "/cmd_vel", rosbridgetest.TypeTwist); err != nil {
		t.Fatal(err)
	}
	// rosbridge gives no answer to a publish: the client cannot know. The
	// fake logs it, as rosbridge does.
	if err := c.Publish(ctx, "/cmd_vel", map[string]any{"linaer": map[string]float64{"x": 1}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CallService(ctx, rosbridgetest.ServiceDock, nil); err != nil { // a round trip: the publish was handled before it
		t.Fatal(err)
	}
	st := srv.State()
	if st.CmdVel != 0 || len(st.Errors) == 0 || !strings.Contains(st.Errors[len(st.Errors)-1], "does not have a field linaer") {
		t.Errorf("cmd_vel %d, errors %q", st.CmdVel, st.Errors)
	}
}
