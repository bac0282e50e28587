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

// publishStopped publishes the stopped reading. Called with Server.mu held.
func (s *Server) publishStopped() {
	if !s.subscribed(FaultStoppedTopic) {
		return
	}
	_, err := os.Stat(filepath.Join(s.fault.rec.Dir, StoppedFile))
	s.deliverMsg(FaultStoppedTopic, map[string]any{"data": err == nil}, false)
}

// running lists the contract's goals still running for move_base's status
// topic (actionstatus.go), their UUIDs derived from rosbridge's ids.
func (f *faultState) running(now time.Time) []any {
	f.mu.Lock()
	defer f.mu.Unlock()
	var list []any
	for id := range f.goals {
		list = append(list, executing(now, uuidOf(id)))
	}
	for id := range f.runaway {
		list = append(list, executing(now, uuidOf(id)))
	}
	return list
}

func uuidOf(id string) [16]byte {
	var u [16]byte
	for i, b := range []byte(id) {
		u[i%16] += b
	}
	return u
}
