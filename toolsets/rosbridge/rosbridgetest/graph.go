package rosbridgetest

import (
	"encoding/base64"
	"fmt"
	"maps"
	"math"
	"sort"
	"strings"
)

// The robot's graph, in ROS 2 names.
const (
	TopicScan    = "/scan"
	TopicOdom    = "/odom"
	TopicCmdVel  = "/cmd_vel"
	TopicCamera  = "/camera/image_raw/compressed"
	TopicBattery = "/battery_state"
	ActionNav    = "/navigate_to_pose"
	ServiceDock  = "/dock"
	// ServiceState answers the fake's State as JSON (not listed by rosapi).
	ServiceState = "/rosbridgetest/state"

	TypeLaserScan       = "sensor_msgs/msg/LaserScan"
	TypeOdometry        = "nav_msgs/msg/Odometry"
	TypeTwist           = "geometry_msgs/msg/Twist"
	TypeCompressedImage = "sensor_msgs/msg/CompressedImage"
	TypeBatteryState    = "sensor_msgs/msg/BatteryState"
	TypeNavigateToPose  = "nav2_msgs/action/NavigateToPose"
	TypeTrigger         = "std_srvs/srv/Trigger"
)

// turtlebotTopics are the TurtleBot's topics, with their types.
func turtlebotTopics() map[string]string {
	return map[string]string{
		TopicScan:           TypeLaserScan,
		TopicOdom:           TypeOdometry,
		TopicCmdVel:         TypeTwist,
		TopicCamera:         TypeCompressedImage,
		TopicBattery:        TypeBatteryState,
		TopicCurtain:        TypeBool,
		TopicPerson:         TypeFloat32,
		"/rosout":           "rcl_interfaces/msg/Log",
		"/parameter_events": "rcl_interfaces/msg/ParameterEvent",
	}
}

// turtlebotActions are the TurtleBot's action servers (and the instant
// test actions: instant.go).
func turtlebotActions() map[string]string {
	actions := map[string]string{ActionNav: TypeNavigateToPose}
	maps.Copy(actions, instantActions())
	return actions
}

// serviceHandler answers one service call; it runs with Server.mu held.
type serviceHandler func(s *Server, args map[string]any) (any, error)

type service struct {
	typ     string
	handler serviceHandler
	hidden  bool // not listed by rosapi
}

// graphServices are the services, rosapi's among them. Names are matched
// without their leading slash (roslib calls "rosapi/topics"); replies
// carry the name as sent.
func graphServices(robot string) map[string]service {
	str := func(args map[string]any, k string) string { s, _ := args[k].(string); return s }
	details := func(kind string) serviceHandler {
		return func(s *Server, args map[string]any) (any, error) {
			if s.opts.Typedefs != nil {
				return map[string]any{"typedefs": s.opts.Typedefs(str(args, "type"))}, nil
			}
			typ := canonical(str(args, "type"))
			switch kind {
			case "goal", "result", "feedback":
				typ = strings.TrimSuffix(typ, "_"+kind) + "_" + strings.ToUpper(kind[:1]) + kind[1:]
			case "request", "response":
				typ = typ + "_" + strings.ToUpper(kind[:1]) + kind[1:]
			}
			return map[string]any{"typedefs": s.types.recursive(typ)}, nil
		}
	}
	rosapi := func(name string) string { return "rosapi_msgs/srv/" + name }
	if robot == RobotArm {
		return withRosapi(armServices(), rosapiServices(details, rosapi))
	}
	return withRosapi(turtlebotServices(), rosapiServices(details, rosapi))
}

// withRosapi merges a robot's services with rosapi's.
func withRosapi(robot, rosapi map[string]service) map[string]service {
	for k, v := range rosapi {
		robot[k] = v
	}
	return robot
}

// turtlebotServices are the TurtleBot's own services.
func turtlebotServices() map[string]service {
	return map[string]service{
		ServiceDock: {typ: TypeTrigger, handler: func(s *Server, _ map[string]any) (any, error) {
			if s.faults.EchoToken {
				return map[string]any{"success": false, "message": "proxy: session Bearer " + s.opts.Token + " may not dock"}, nil
			}
			d := math.Hypot(s.w.x-dockX, s.w.y-dockY)
			if d > dockRange {
				return map[string]any{"success": false, "message": fmt.Sprintf("dock not in range (%.2f m away)", d)}, nil
			}
			s.w.docked = true
			return map[string]any{"success": true, "message": "docked"}, nil
		}},
		ActionNav + "/_action/cancel_goal": {typ: "action_msgs/srv/CancelGoal", hidden: true, handler: cancelGoalService},
		ServiceResetWorld:                  {typ: TypeEmpty, handler: resetWorldService},
	}
}

// rosapiServices are rosapi's services and the fake's state service.
func rosapiServices(details func(string) serviceHandler, rosapi func(string) string) map[string]service {
	str := func(args map[string]any, k string) string { s, _ := args[k].(string); return s }
	return map[string]service{
		ServiceState: {typ: "rosbridgetest/srv/State", hidden: true, handler: func(s *Server, _ map[string]any) (any, error) {
			return s.stateLocked(), nil
		}},
		ServiceSet: {typ: "rosbridgetest/srv/Set", hidden: true, handler: setService},
		"/rosapi/topics": {typ: rosapi("Topics"), handler: func(s *Server, _ map[string]any) (any, error) {
			names, types := s.topicList()
			return map[string]any{"topics": names, "types": types}, nil
		}},
		"/rosapi/topic_type": {typ: rosapi("TopicType"), handler: func(s *Server, args map[string]any) (any, error) {
			return map[string]any{"type": s.topicType(str(args, "topic"))}, nil
		}},
		"/rosapi/topics_for_type": {typ: rosapi("TopicsForType"), handler: func(s *Server, args map[string]any) (any, error) {
			names, types := s.topicList()
			out := []string{}
			for i, n := range names {
				if types[i] == canonical(str(args, "type")) {
					out = append(out, n)
				}
			}
			return map[string]any{"topics": out}, nil
		}},
		"/rosapi/services": {typ: rosapi("Services"), handler: func(s *Server, _ map[string]any) (any, error) {
			var out []string
			for name, sv := range s.services {
				if !sv.hidden {
					out = append(out, name)
				}
			}
			sort.Strings(out)
			return map[string]any{"services": out}, nil
		}},
		"/rosapi/service_type": {typ: rosapi("ServiceType"), handler: func(s *Server, args map[string]any) (any, error) {
			sv, ok := s.lookupService(str(args, "service"))
			if !ok || sv.hidden {
				return map[string]any{"type": ""}, nil
			}
			return map[string]any{"type": sv.typ}, nil
		}},
		"/rosapi/action_servers": {typ: rosapi("GetActionServers"), handler: func(s *Server, _ map[string]any) (any, error) {
			return map[string]any{"action_servers": sortedKeys(s.graphActions())}, nil
		}},
		"/rosapi/action_type": {typ: rosapi("ActionType"), handler: func(s *Server, args map[string]any) (any, error) {
			return map[string]any{"type": s.graphActions()["/"+strings.TrimPrefix(str(args, "action"), "/")]}, nil
		}},
		"/rosapi/nodes": {typ: rosapi("Nodes"), handler: func(s *Server, _ map[string]any) (any, error) {
			if s.arm != nil {
				return map[string]any{"nodes": armNodes()}, nil
			}
			return map[string]any{"nodes": []string{"/bt_navigator", "/controller_server", "/rosapi", "/rosbridge_websocket", "/turtlebot3_node"}}, nil
		}},
		"/rosapi/get_ros_version": {typ: rosapi("GetROSVersion"), handler: func(*Server, map[string]any) (any, error) {
			return map[string]any{"version": 2, "distro": "jazzy"}, nil
		}},
		"/rosapi/message_details":          {typ: rosapi("MessageDetails"), handler: details("message")},
		"/rosapi/service_request_details":  {typ: rosapi("ServiceRequestDetails"), handler: details("request")},
		"/rosapi/service_response_details": {typ: rosapi("ServiceResponseDetails"), handler: details("response")},
		"/rosapi/action_goal_details":      {typ: rosapi("ActionGoalDetails"), handler: details("goal")},
		"/rosapi/action_result_details":    {typ: rosapi("ActionResultDetails"), handler: details("result")},
		"/rosapi/action_feedback_details":  {typ: rosapi("ActionFeedbackDetails"), handler: details("feedback")},
	}
}

// cancelGoalService is the action's own cancel service (what roslib's
// cancelAllGoals calls): a zero goal id and stamp cancel every goal, a
// goal id cancels that goal. The canceled goals' ids come back as uint8[]
// in base64, as rosbridge sends them.
func cancelGoalService(s *Server, args map[string]any) (any, error) {
	var want []byte
	if info, ok := args["goal_info"].(map[string]any); ok {
		if gid, ok := info["goal_id"].(map[string]any); ok {
			b, err := uint8Array(gid["uuid"])
			if err != nil {
				return nil, fmt.Errorf("goal_info.goal_id.uuid: %w", err)
			}
			want = b
		}
	}
	all := len(want) == 0 || strings.Trim(string(want), "\x00") == ""
	canceling := []any{}
	for i := len(s.w.goals) - 1; i >= 0; i-- {
		g := s.w.goals[i]
		if g.ghost || (!all && string(g.uuid[:]) != string(want)) {
			continue
		}
		canceling = append(canceling, map[string]any{
			"goal_id": map[string]any{"uuid": base64.StdEncoding.EncodeToString(g.uuid[:])},
			"stamp":   stamp(g.accepted),
		})
		s.cancelAt(i)
	}
	code := 0 // ERROR_NONE
	if len(canceling) == 0 {
		code = 2 // ERROR_UNKNOWN_GOAL_ID
	}
	return map[string]any{"return_code": code, "goals_canceling": canceling}, nil
}

// uint8Array reads a uint8[] sent as base64 text or as a list of numbers.
func uint8Array(v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case string:
		return base64.StdEncoding.DecodeString(x)
	case []any:
		out := make([]byte, len(x))
		for i, e := range x {
			n, ok := e.(float64)
			if !ok || n < 0 || n > 255 || n != math.Trunc(n) {
				return nil, fmt.Errorf("element %d is not a byte", i)
			}
			out[i] = byte(n)
		}
		return out, nil
	}
	return nil, fmt.Errorf("expected base64 text or a list of numbers, got %T", v)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// topicList lists the graph's topics and those clients advertised.
// Called with Server.mu held.
func (s *Server) topicList() (names, types []string) {
	all := s.graphTopics()
	for t, typ := range s.advertised {
		all[t] = typ
	}
	maps.Copy(all, s.opts.Graph.Topics)
	names = sortedKeys(all)
	for _, n := range names {
		types = append(types, all[n])
	}
	return names, types
}

// topicType is a topic's type, "" when the topic does not exist.
func (s *Server) topicType(topic string) string {
	topic = "/" + strings.TrimPrefix(topic, "/")
	if t, ok := s.graphTopics()[topic]; ok {
		return t
	}
	return s.advertised[topic]
}

func (s *Server) lookupService(name string) (service, bool) {
	sv, ok := s.services["/"+strings.TrimPrefix(name, "/")]
	return sv, ok
}
