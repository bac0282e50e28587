package rosbridge

import (
	"maps"
	"slices"

	"github.com/thea-harness/thea/toolsets/rosbridge/perception"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// topicUse is one place of the section that reads a topic: where, the
// topic's type there, and how rosbridge is to send it.
type topicUse struct {
	path, topic, typ string
	sub              SubscribeDecl
}

// topicUses lists every topic the observation, clearance and readings
// read, in a fixed order (cameras, pose, state, clearance, readings; names
// sorted).
func (c Config) topicUses() []topicUse {
	var out []topicUse
	if o := c.Observation; o != nil {
		for _, cam := range slices.Sorted(maps.Keys(o.Cameras)) {
			t := o.Cameras[cam]
			typ := typeCompressedImage
			if t.Type == perception.TypeImage {
				typ = perception.TypeImage
			}
			out = append(out, topicUse{"observation.cameras." + cam, t.Topic, typ, t.SubscribeDecl})
		}
		if o.Pose != nil && o.Pose.Topic != "" {
			out = append(out, topicUse{"observation.pose", o.Pose.Topic, poseType(o.Pose.Type, typeOdometry), o.Pose.SubscribeDecl})
		}
		for _, k := range slices.Sorted(maps.Keys(o.State)) {
			s := o.State[k]
			out = append(out, topicUse{"observation.state." + k, s.Topic, s.Type, s.SubscribeDecl})
		}
		out = append(out, o.perceptionUses()...)
	}
	if cl := c.Clearance; cl != nil {
		out = append(out, topicUse{"clearance", cl.Topic, typeLaserScan, cl.SubscribeDecl})
	}
	if r := c.Readings; r != nil {
		for _, k := range slices.Sorted(maps.Keys(r.Sources)) {
			s := r.Sources[k]
			out = append(out, topicUse{"readings.sources." + k, s.Topic, s.Type, s.SubscribeDecl})
		}
	}
	return out
}

// checkSubscribe finds what rosbridge cannot send as declared: a
// compression other than none, and one topic asked for two ways (a topic
// is subscribed once).
func checkSubscribe(c Config, fail func(path, format string, args ...any)) {
	first := map[string]topicUse{}
	for _, u := range c.topicUses() {
		switch u.sub.Compression {
		case "", "none":
		case "png":
			fail(u.path+".compression", `compression "png" is refused: rosbridge would send the message as a PNG image of its JSON, which this kind does not decode; use "none" (a CompressedImage is already JPEG or PNG)`)
		case "cbor", "cbor-raw":
			fail(u.path+".compression", "compression %q is refused: rosbridge would send binary CBOR frames and this kind reads JSON text frames only; use \"none\"", u.sub.Compression)
		default:
			fail(u.path+".compression", "unknown compression %q (rosbridge knows none, png, cbor and cbor-raw; this kind reads none)", u.sub.Compression)
		}
		if prev, ok := first[u.topic]; ok && prev.sub != u.sub {
			fail(u.path, "%s is also read at %s with other throttle_rate, queue_length, fragment_size or compression: a topic is subscribed once, so declare them alike", u.topic, prev.path)
		}
		if _, ok := first[u.topic]; !ok {
			first[u.topic] = u
		}
	}
}

// subscriptions are the topics the observation and clearance read, each
// once, as declared (a state field's explicit type wins over none).
func (p *plan) subscriptions() []wire.Subscription {
	subs := map[string]wire.Subscription{}
	for _, u := range p.cfg.topicUses() {
		s, ok := subs[u.topic]
		if ok && (s.Type != "" || u.typ == "") {
			continue
		}
		q := u.sub.QueueLength
		if q == 0 {
			q = 1 // an observation reads the latest message only
		}
		subs[u.topic] = wire.Subscription{Topic: u.topic, Type: u.typ, ThrottleRate: duration(u.sub.ThrottleRate),
			QueueLength: q, FragmentSize: u.sub.FragmentSize, Compression: u.sub.Compression}
	}
	var out []wire.Subscription
	for _, topic := range slices.Sorted(maps.Keys(subs)) {
		out = append(out, subs[topic])
	}
	return out
}
