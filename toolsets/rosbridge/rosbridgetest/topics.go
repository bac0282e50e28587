package rosbridgetest

import (
	"encoding/json"
	"time"
)

// Topic rates, in ticks between two messages (the default tick is 20ms:
// odometry 25 Hz, scan and camera 5 Hz, battery 1 Hz).
const (
	odomEvery    = 2
	scanEvery    = 10
	cameraEvery  = 10
	batteryEvery = 50
)

// publishTopics sends the robot's topics that are due at this tick.
// Called with Server.mu held.
func (s *Server) publishTopics(tick uint64, now time.Time) {
	s.publishFault(now)
	s.publishActionStatus(now)
	due := func(every uint64, offset uint64) bool { return tick%every == offset%every }
	s.publishSafety(tick)
	s.publishExtra(tick)
	if due(odomEvery, 0) && s.subscribed(TopicOdom) {
		msg := odometry(now, s.noise.noisyWorld(s.w))
		if s.faults.EchoToken {
			msg["header"].(map[string]any)["frame_id"] = "odom:" + s.opts.Token
			msg["child_frame_id"] = "base:" + s.opts.Token
		}
		s.deliverMsg(TopicOdom, msg, false)
	}
	if due(scanEvery, 1) && s.subscribed(TopicScan) {
		s.deliverMsg(TopicScan, scan(now, s.w, s.noise, s.faults.BareNonFinite), s.faults.BareNonFinite)
	}
	if due(cameraEvery, 6) && s.subscribed(TopicCamera) {
		msg := compressedImage(now, s.w)
		if s.faults.HugeImageHeader {
			msg = hugeImage(now)
		}
		s.deliverMsg(TopicCamera, msg, false)
	}
	if due(batteryEvery, 3) && s.subscribed(TopicBattery) {
		s.deliverMsg(TopicBattery, batteryState(now, s.w), false)
	}
}

// subscribed reports whether any socket subscribes to topic and it is not
// held silent.
func (s *Server) subscribed(topic string) bool {
	if s.held[topic] {
		return false
	}
	for c := range s.sessions {
		if c.subs[topic] != nil {
			return true
		}
	}
	return false
}

func (s *Server) deliverMsg(topic string, msg map[string]any, bare bool) {
	raw, err := json.Marshal(msg)
	if err != nil {
		s.logf("encode %s: %v", topic, err)
		return
	}
	if bare {
		raw = replaceBare(raw)
	}
	s.deliver(topic, raw)
}

// deliver sends one message to every subscriber of topic, under the name
// each subscribed with, honouring its throttle_rate. Called with
// Server.mu held.
func (s *Server) deliver(topic string, msg []byte) {
	now := time.Now()
	if s.published == nil {
		s.published = map[string]int{}
	}
	s.published[topic]++
	for c := range s.sessions {
		sub := c.subs[topic]
		if sub == nil {
			continue
		}
		if sub.throttle > 0 && !sub.last.IsZero() && now.Sub(sub.last) < sub.throttle {
			continue
		}
		sub.last = now
		name, _ := json.Marshal(sub.sent)
		frame := make([]byte, 0, len(msg)+len(name)+32)
		frame = append(frame, `{"op":"publish","topic":`...)
		frame = append(frame, name...)
		frame = append(frame, `,"msg":`...)
		frame = append(frame, msg...)
		frame = append(frame, '}')
		c.enqueueRaw(frame, "", sub.fragment, false)
	}
}
