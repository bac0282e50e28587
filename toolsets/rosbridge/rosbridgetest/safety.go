package rosbridgetest

import (
	"fmt"
	"math"
)

// The safety sensors of the fake: a light curtain (std_msgs/msg/Bool, true
// while unbroken) and a person distance (std_msgs/msg/Float32, metres; NaN,
// sent as null, when nobody is seen), each at 5 Hz and at once when it
// changes. A test changes them, and holds any topic silent, through the
// hidden ServiceSet; called on the socket a client reads its topics on, the
// change reaches that client before the service's answer does.
const (
	TopicCurtain = "/light_curtain"
	TopicPerson  = "/person_distance"
	// ServiceSet changes the safety sensors and holds or releases topics
	// (not listed by rosapi): {curtain_clear?: bool, person_distance?:
	// number or null, hold?: [topic…], release?: [topic…]}.
	ServiceSet = "/rosbridgetest/set"

	TypeBool    = "std_msgs/msg/Bool"
	TypeFloat32 = "std_msgs/msg/Float32"

	safetyEvery = 10 // ticks: 5 Hz at the default tick
)

// publishSafety publishes the safety sensors due at this tick. Called with
// Server.mu held.
func (s *Server) publishSafety(tick uint64) {
	if tick%safetyEvery != 4 {
		return
	}
	s.publishCurtain()
	s.publishPerson()
}

func (s *Server) publishCurtain() {
	if s.subscribed(TopicCurtain) {
		s.deliverMsg(TopicCurtain, map[string]any{"data": s.w.curtainClear}, false)
	}
}

func (s *Server) publishPerson() {
	if s.subscribed(TopicPerson) {
		var d any = s.w.personDistance
		if math.IsNaN(s.w.personDistance) {
			d = nil // rosbridge sends NaN as null
		}
		s.deliverMsg(TopicPerson, map[string]any{"data": d}, false)
	}
}

// setService is ServiceSet. Called with Server.mu held.
func setService(s *Server, args map[string]any) (any, error) {
	if s.held == nil {
		s.held = map[string]bool{}
	}
	for _, t := range topicList(args["hold"]) {
		s.held[t] = true
	}
	for _, t := range topicList(args["release"]) {
		delete(s.held, t)
	}
	if v, ok := args["curtain_clear"]; ok {
		b, ok := v.(bool)
		if !ok {
			return nil, fmt.Errorf("curtain_clear is %v, not a bool", v)
		}
		s.w.curtainClear = b
		s.publishCurtain()
	}
	if v, ok := args["person_distance"]; ok {
		switch d := v.(type) {
		case nil:
			s.w.personDistance = math.NaN()
		case float64:
			s.w.personDistance = d
		default:
			return nil, fmt.Errorf("person_distance is %v, not a number or null", v)
		}
		s.publishPerson()
	}
	return map[string]any{"success": true, "message": "set"}, nil
}

func topicList(v any) []string {
	l, _ := v.([]any)
	var out []string
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
