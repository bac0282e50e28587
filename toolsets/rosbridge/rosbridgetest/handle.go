package rosbridgetest

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"
)

// handle runs one frame from a client. Like rosbridge, it answers only
// what has an answer (service_response, action_result); every other
// mistake is logged on the server and the frame dropped.
func (c *session) handle(data []byte) {
	s := c.srv
	var m map[string]any
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := json.Unmarshal(data, &m); err != nil {
		s.logf("frame is not a JSON object: %v", err)
		return
	}
	op, _ := m["op"].(string)
	str := func(k string) string { v, _ := m[k].(string); return v }
	switch op {
	case "subscribe":
		c.subscribe(str("topic"), str("type"), m)
	case "unsubscribe":
		delete(c.subs, slashed(str("topic")))
	case "advertise":
		c.advertise(str("topic"), str("type"))
	case "unadvertise":
		t := slashed(str("topic"))
		if _, base := s.graphTopics()[t]; !base {
			delete(s.advertised, t)
		}
	case "publish":
		c.publish(str("topic"), m["msg"])
	case "call_service":
		c.callService(str("service"), m["id"], m["args"])
	case "send_action_goal":
		c.sendGoal(str("action"), str("action_type"), m["id"], m["args"], m["feedback"] == true)
	case "cancel_action_goal":
		s.cancelGoal(idText(m["id"]))
	case "set_level", "auth":
		// accepted and ignored, as rosbridge without authentication does
	default:
		s.logf("unknown operation %q", op)
	}
}

func slashed(name string) string { return "/" + strings.TrimPrefix(name, "/") }

// idText is a client's id as text (rosbridge accepts strings and numbers).
func idText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return fmt.Sprint(x)
	}
	return ""
}

func (c *session) subscribe(topic, typ string, m map[string]any) {
	s := c.srv
	num := func(k string) int { v, _ := m[k].(float64); return int(v) }
	compression, _ := m["compression"].(string)
	if len(s.subsSeen) < 100 {
		s.subsSeen = append(s.subsSeen, SubscriptionState{Topic: topic, Type: typ, ThrottleRate: num("throttle_rate"),
			QueueLength: num("queue_length"), Compression: compression, FragmentSize: num("fragment_size")})
	}
	known := s.topicType(topic)
	switch {
	case topic == "":
		s.logf("subscribe: no topic")
		return
	case known == "" && typ == "":
		s.logf("subscribe %s: cannot infer topic type for a topic that does not exist", topic)
		return
	case typ != "" && known != "" && canonical(typ) != known:
		s.logf("subscribe %s: type %s conflicts with the topic's type %s", topic, typ, known)
		return
	}
	if compression != "" && compression != "none" {
		s.logf("subscribe %s: compression %q is not supported by this fake; sending JSON", topic, compression)
	}
	c.subs[slashed(topic)] = &sessionSub{sent: topic, throttle: time.Duration(num("throttle_rate")) * time.Millisecond,
		fragment: num("fragment_size")}
	s.latched(slashed(topic))
}

func (c *session) advertise(topic, typ string) {
	s := c.srv
	if topic == "" || typ == "" {
		s.logf("advertise: topic and type are both needed")
		return
	}
	if known := s.topicType(topic); known != "" && known != canonical(typ) {
		s.logf("advertise %s: type %s conflicts with the topic's type %s", topic, typ, known)
		return
	}
	if _, ok := s.types[canonical(typ)]; !ok {
		s.logf("advertise %s: unknown type %s", topic, typ)
		return
	}
	if _, base := s.graphTopics()[slashed(topic)]; !base {
		s.advertised[slashed(topic)] = canonical(typ)
	}
}

// publish checks a client's message against the topic's type, drives the
// base for /cmd_vel, and hands the message to every subscriber.
func (c *session) publish(topic string, msg any) {
	s := c.srv
	typ := s.topicType(topic)
	if typ == "" {
		s.logf("publish %s: cannot infer topic type for a topic nobody advertised", topic)
		return
	}
	if err := s.types.check(typ, msg); err != nil {
		s.logf("publish %s: %v", topic, err)
		return
	}
	if slashed(topic) == TopicCmdVel {
		lin, ang := twist(msg)
		s.cmdVelCount++
		s.w.cmdV, s.w.cmdW, s.w.cmdAt = lin, ang, time.Now()
	}
	raw, err := json.Marshal(msg)
	if err != nil {
		return
	}
	s.deliver(slashed(topic), raw)
}

// twist reads linear.x and angular.z of a Twist.
func twist(msg any) (float64, float64) {
	get := func(part, axis string) float64 {
		m, _ := msg.(map[string]any)
		p, _ := m[part].(map[string]any)
		v, _ := p[axis].(float64)
		return v
	}
	return get("linear", "x"), get("angular", "z")
}

func (c *session) callService(name string, id any, args any) {
	s := c.srv
	s.serviceCalls[name]++
	reply := map[string]any{"op": "service_response", "service": name}
	if id != nil {
		reply["id"] = id
	}
	values, err := c.runService(name, args)
	if err != nil {
		reply["result"], reply["values"] = false, err.Error()
	} else {
		reply["result"], reply["values"] = true, values
	}
	c.enqueue(reply, true)
	if s.faults.Garbage {
		c.sendGarbage()
	}
}

func (c *session) runService(name string, args any) (any, error) {
	s := c.srv
	sv, ok := s.lookupService(name)
	if !ok {
		//lint:ignore ST1005 rosbridge's own words, which clients match on
		return nil, fmt.Errorf("Service %s does not exist", name)
	}
	var obj map[string]any
	switch a := args.(type) {
	case nil:
		obj = map[string]any{}
	case map[string]any:
		obj = a
	case []any:
		if len(a) > 0 {
			return nil, fmt.Errorf("%s: positional arguments are not supported by this fake; send an object", name)
		}
		obj = map[string]any{}
	default:
		return nil, fmt.Errorf("%s: args must be an object", name)
	}
	if req := sv.typ + "_Request"; s.types[req] != nil {
		if err := s.types.check(req, obj); err != nil {
			return nil, err
		}
	}
	values, err := sv.handler(s, obj)
	return s.echoToken(name, obj, values, err)
}

func (c *session) sendGoal(action, actionType string, id any, args any, feedback bool) {
	s := c.srv
	gid := idText(id)
	fail := func(reason string) {
		frame := map[string]any{"op": "action_result", "action": action, "status": 0, "result": false, "values": reason}
		if id != nil {
			frame["id"] = id
		}
		c.enqueue(frame, true)
	}
	if typ, ok := s.graphActions()[slashed(action)]; !ok || typ != canonical(actionType) {
		fail("No action server available")
		return
	}
	if err := s.types.check(canonical(actionType)+"_Goal", args); err != nil {
		fail(err.Error())
		return
	}
	if s.arm != nil {
		s.acceptArmGoal(c, slashed(action), gid, args, feedback)
		return
	}
	if values, ok := s.instantResult(action, args); ok {
		c.sendInstantResult(action, id, values)
		return
	}
	x, y, yaw := goalPose(args)
	g := &navGoal{id: gid, action: action, uuid: newUUID(), accepted: time.Now(), tx: x, ty: y, tyaw: yaw,
		owner: c, feedback: feedback}
	s.acceptGoal(g)
}

// goalPose reads a NavigateToPose goal's target position and heading.
func goalPose(args any) (x, y, yaw float64) {
	m, _ := args.(map[string]any)
	ps, _ := m["pose"].(map[string]any)
	p, _ := ps["pose"].(map[string]any)
	pos, _ := p["position"].(map[string]any)
	q, _ := p["orientation"].(map[string]any)
	num := func(m map[string]any, k string) float64 { v, _ := m[k].(float64); return v }
	x, y = num(pos, "x"), num(pos, "y")
	qz, qw := num(q, "z"), num(q, "w")
	if qz != 0 || qw != 0 {
		yaw = 2 * math.Atan2(qz, qw)
	}
	return x, y, yaw
}
