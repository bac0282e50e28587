package rosbridgetest

import (
	"strings"
	"time"
)

// statusSuffix ends an action's status topic (action_msgs/msg/GoalStatusArray).
const statusSuffix = "/_action/status"

// publishActionStatus publishes, on every subscribed "<action>/_action/status",
// the goals of that action still running, as executing (2), as an action
// server's status topic lists its goals to any client: what tells a client
// whose socket dropped that a goal ended. A goal the fake stopped answering
// for (a ghost that drives on) is still running, so it is listed. Called
// with Server.mu held.
func (s *Server) publishActionStatus(now time.Time) {
	topics := map[string]bool{}
	for c := range s.sessions {
		for topic := range c.subs {
			if strings.HasSuffix(topic, statusSuffix) && !s.held[topic] {
				topics[topic] = true
			}
		}
	}
	for topic := range topics {
		action := strings.TrimSuffix(topic, statusSuffix)
		list := []any{}
		for _, g := range s.w.goals {
			if g.action == action {
				list = append(list, executing(now, g.uuid))
			}
		}
		if s.arm != nil {
			for _, g := range s.arm.goals {
				if g.action == action {
					list = append(list, executing(now, g.uuid))
				}
			}
		}
		if s.fault != nil && action == FaultMoveAction {
			list = append(list, s.fault.running(now)...)
		}
		s.deliverMsg(topic, map[string]any{"status_list": list}, false)
	}
}

// executing is one entry of a GoalStatusArray: the goal, executing.
func executing(now time.Time, uuid [16]byte) map[string]any {
	id := make([]any, len(uuid))
	for i, b := range uuid {
		id[i] = int(b)
	}
	return map[string]any{"goal_info": map[string]any{"goal_id": map[string]any{"uuid": id},
		"stamp": map[string]any{"sec": now.Unix(), "nanosec": now.Nanosecond()}}, "status": 2}
}
