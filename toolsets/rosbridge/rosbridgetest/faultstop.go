package rosbridgetest

import (
	"os"
	"path/filepath"
	"time"
)

// The stops that lie, for the body layer's rule that only the robot's own
// word ends a motion: a goal no stop ends, stop services that answer
// without stopping, and the action's status topic that finally says the
// goal ended.
const (
	// FaultRunaway makes a move_base goal ignore every cancel, zero
	// velocity and declared stop: it ends only when GateFile exists, and
	// its result goes to the socket that sent it (dropped by a kill, so
	// only the status topic tells its end).
	FaultRunaway = "runaway"
	// FaultStopLies answers success (std_srvs/srv/Trigger) and does
	// nothing; FaultStopRefuses answers success: false.
	FaultStopLies    = "/fault/stop_lies"
	FaultStopRefuses = "/fault/stop_refuses"
	// FaultMoveStatus is move_base's status topic
	// (action_msgs/msg/GoalStatusArray): every goal still running, as
	// executing (2), at every tick while subscribed.
	FaultMoveStatus = FaultMoveAction + "/_action/status"
	// FaultStoppedTopic (std_msgs/msg/Bool) is the base driver's "stopped"
	// reading, at every tick while subscribed: true once StoppedFile exists
	// in the fault directory, whatever the goals do (a test's way to say
	// the robot is still).
	FaultStoppedTopic = "/fault/stopped"
	StoppedFile       = "stopped"
	// StopRefusedMessage is FaultStopRefuses's message.
	StopRefusedMessage = "the controller refused the stop: safety interlock engaged"
)

// handleLyingStop answers the lying stop services; false when the frame is
// not a call of one.
func (c *session) handleLyingStop(op, service string, id any) bool {
	if op != "call_service" {
		return false
	}
	f := c.srv.fault
	switch service {
	case FaultStopLies:
		f.rec.Logf("stop (lies)")
		c.serviceReply(service, id, true, map[string]any{"success": true, "message": "stopped"})
	case FaultStopRefuses:
		f.rec.Logf("stop (refuses)")
		c.serviceReply(service, id, true, map[string]any{"success": false, "message": StopRefusedMessage})
	default:
		return false
	}
	return true
}

// runaway is a goal no stop ends: it runs until GateFile exists, then
// answers succeeded on the socket that sent it.
func (c *session) runaway(action, id string) {
	f := c.srv.fault
	f.mu.Lock()
	f.runaway[id] = true
	f.mu.Unlock()
	me := f.rec.Begin()
	f.rec.Logf("runaway %s", id)
	<-f.rec.Gate(nil)
	f.mu.Lock()
	delete(f.runaway, id)
	f.mu.Unlock()
	f.rec.End(me, false)
	f.rec.Logf("runaway ended %s", id)
	c.srv.mu.Lock()
	defer c.srv.mu.Unlock()
	c.enqueue(map[string]any{"op": "action_result", "id": id, "action": action, "status": 4, "result": true,
		"values": map[string]any{"moved": true, "stopped": false}}, true)
}

// publishGoalStatus publishes the stopped reading and move_base's status
// topic (every goal still running, as executing). Called with Server.mu
// held.
func (s *Server) publishGoalStatus(now time.Time) {
	f := s.fault
	if s.subscribed(FaultStoppedTopic) {
		_, err := os.Stat(filepath.Join(f.rec.Dir, StoppedFile))
		s.deliverMsg(FaultStoppedTopic, map[string]any{"data": err == nil}, false)
	}
	if !s.subscribed(FaultMoveStatus) {
		return
	}
	f.mu.Lock()
	list := []any{}
	for id := range f.goals {
		list = append(list, goalStatus(now, id))
	}
	for id := range f.runaway {
		list = append(list, goalStatus(now, id))
	}
	f.mu.Unlock()
	s.deliverMsg(FaultMoveStatus, map[string]any{"status_list": list}, false)
}

// goalStatus is one executing entry of a GoalStatusArray; the UUID is
// derived from rosbridge's id, as the real server's is its own.
func goalStatus(now time.Time, id string) map[string]any {
	uuid := make([]any, 16)
	for i := range uuid {
		uuid[i] = 0
	}
	for i, b := range []byte(id) {
		uuid[i%16] = (uuid[i%16].(int) + int(b)) % 256
	}
	return map[string]any{"goal_info": map[string]any{"goal_id": map[string]any{"uuid": uuid},
		"stamp": map[string]any{"sec": now.Unix(), "nanosec": now.Nanosecond()}}, "status": 2}
}
