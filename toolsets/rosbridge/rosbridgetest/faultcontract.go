package rosbridgetest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/thea-harness/thea/toolsets/internal/faultserver"
)

// The fault contract: with Options.FaultDir set, the fake also serves the
// body layer's fault suite over rosbridge (the tools and files faultserver
// documents), recording into that directory through faultserver.Recorder:
//
//   - service /fault/probe {fault, n}: answers {ok: true}; the faults crash
//     (the process exits mid-call), hang (never answers), freeze (this
//     socket freezes: nothing is read or written on it, not even a pong —
//     a wedged connection; the kill drops it and a new one is served),
//     escape, inject (hostile text in the response), error (a failed call),
//     slow (answers after n ms);
//   - service /fault/pid: the process id;
//   - action /fault/move_base {ms, fault}: a motion of ms milliseconds that
//     only a cancel (or a zero on /fault/cmd_vel) ends early; faults crash,
//     hang (until stopped), gate (until GateFile exists), freeze, and the
//     content faults of probe. Its result is {moved, stopped}; a cancelled
//     one ends canceled, logging "stop";
//   - action /fault/crash: begins a motion, then the process exits;
//   - topic /fault/odom (nav_msgs/msg/Odometry) every tick, as ObserveFile
//     says: absent a good pose, "silent" nothing, "nan" a null position;
//   - topic /fault/cmd_vel: a zero Twist ends every motion (a base's own
//     velocity override: what the kill path's zero reaches when cancels
//     are ignored);
//   - with the arm (Options.Robot RobotArm), the dashboard stop service
//     /dashboard_client/stop ends every motion too (an arm's declared
//     stop), logging "stop (dashboard)";
//   - the stops that lie (faultstop.go): move_base's fault runaway, a goal
//     that ignores every cancel and stop and ends only when GateFile
//     exists; the services /fault/stop_lies (answers success, does
//     nothing) and /fault/stop_refuses (answers success: false); and the
//     action's status topic /fault/move_base/_action/status, listing the
//     goals still running; and /fault/stopped (Bool), true once StoppedFile
//     exists.
//
// A socket whose URL has the query cancel=ignore ignores its cancels: a
// toolset whose stop path does nothing.
const (
	FaultService    = "/fault/probe"
	FaultPidService = "/fault/pid"
	FaultMoveAction = "/fault/move_base"
	FaultCrashGoal  = "/fault/crash"
	FaultOdomTopic  = "/fault/odom"
	FaultCmdVel     = "/fault/cmd_vel"
)

// faultState is the fault contract's state of one server.
type faultState struct {
	rec  *faultserver.Recorder
	mu   sync.Mutex
	stop chan struct{} // closed to end every motion in progress
	// goals are the motions in progress by goal id, each with its stop.
	goals map[string]chan struct{}
	// runaway are the goals that no stop ends (fault runaway), by id.
	runaway map[string]bool
}

func newFaultState(dir string) *faultState {
	return &faultState{rec: &faultserver.Recorder{Dir: dir}, stop: make(chan struct{}), goals: map[string]chan struct{}{}, runaway: map[string]bool{}}
}

// handleFault runs a frame of the fault contract; false when the frame is
// not one. It never holds Server.mu while a call runs.
func (c *session) handleFault(data []byte) bool {
	f := c.srv.fault
	if f == nil {
		return false
	}
	var m map[string]any
	if json.Unmarshal(data, &m) != nil {
		return false
	}
	str := func(k string) string { v, _ := m[k].(string); return v }
	args, _ := m["args"].(map[string]any)
	fault, _ := args["fault"].(string)
	n, _ := args["n"].(float64)
	if c.handleLyingStop(str("op"), slashed(str("service")), m["id"]) {
		return true
	}
	switch op := str("op"); {
	case op == "call_service" && slashed(str("service")) == FaultService:
		f.rec.Logf("probe %s", fault)
		if fault == faultserver.FaultFreeze {
			f.rec.Logf("freeze")
			c.freeze()
			return true
		}
		go c.probe(str("service"), m["id"], fault, int(n))
	case op == "call_service" && slashed(str("service")) == FaultPidService:
		c.serviceReply(str("service"), m["id"], true, map[string]any{"pid": os.Getpid()})
	case op == "send_action_goal" && slashed(str("action")) == FaultMoveAction:
		ms, _ := args["ms"].(float64)
		if fault == faultserver.FaultFreeze {
			f.rec.Logf("freeze")
			c.freeze()
		}
		if fault == FaultRunaway {
			go c.runaway(str("action"), idText(m["id"]))
			return true
		}
		go c.move(str("action"), idText(m["id"]), time.Duration(ms)*time.Millisecond, fault, int(n))
	case op == "send_action_goal" && slashed(str("action")) == FaultCrashGoal:
		f.rec.Begin()
		fmt.Fprintln(os.Stderr, "rosbridgetest: crashing mid-motion")
		os.Exit(3)
	case op == "cancel_action_goal" && strings.HasPrefix(slashed(str("action")), "/fault/"):
		if !c.ignoreCancel && f.end(idText(m["id"])) {
			f.rec.Logf("stop")
		}
	case op == "call_service" && slashed(str("service")) == ServiceDashboardStop && c.srv.arm != nil:
		// The arm's dashboard stop halts the contract's motions too; the
		// arm's own handler answers it.
		f.rec.Logf("stop (dashboard)")
		f.endAll()
		return false
	case op == "publish" && slashed(str("topic")) == FaultCmdVel:
		if lin, ang := twist(m["msg"]); lin == 0 && ang == 0 {
			f.rec.Logf("zero")
			f.endAll()
		}
	default:
		return false
	}
	return true
}

// probe answers a probe as its fault says.
func (c *session) probe(service string, id any, fault string, n int) {
	switch fault {
	case faultserver.FaultCrash:
		fmt.Fprintln(os.Stderr, "rosbridgetest: crashing mid-call")
		os.Exit(3)
	case faultserver.FaultHang:
		return // never answered; the socket still serves other calls
	case faultserver.FaultSlow:
		time.Sleep(time.Duration(n) * time.Millisecond)
	}
	if ok, values := contentFault(fault); ok {
		c.serviceReply(service, id, values != nil, values)
		return
	}
	c.serviceReply(service, id, true, map[string]any{"ok": true})
}

// contentFault is the answer of a fault about the answer's content: done,
// and the values (nil for a failed call, which says why in its own words).
func contentFault(fault string) (done bool, values map[string]any) {
	switch fault {
	case faultserver.FaultEscape:
		return true, map[string]any{"text": faultserver.EscapeText}
	case faultserver.FaultInject:
		return true, map[string]any{"text": faultserver.InjectText}
	case faultserver.FaultError:
		return true, nil
	}
	return false, nil
}

func (c *session) serviceReply(service string, id any, ok bool, values any) {
	reply := map[string]any{"op": "service_response", "service": service, "result": ok, "values": values}
	if !ok {
		reply["values"] = "the driver refused: joint 3 fault"
	}
	if id != nil {
		reply["id"] = id
	}
	c.srv.mu.Lock()
	defer c.srv.mu.Unlock()
	c.enqueue(reply, true)
}

// move runs one motion until its time, its gate, or a stop.
func (c *session) move(action, id string, d time.Duration, fault string, n int) {
	f := c.srv.fault
	mine := make(chan struct{})
	f.mu.Lock()
	all := f.stop
	f.goals[id] = mine
	f.mu.Unlock()
	me := f.rec.Begin()
	var wait <-chan time.Time
	switch fault {
	case faultserver.FaultCrash:
		fmt.Fprintln(os.Stderr, "rosbridgetest: crashing mid-motion")
		os.Exit(3)
	case faultserver.FaultHang:
		// nil: only a stop ends it
	case faultserver.FaultGate:
		wait = f.rec.Gate(mine)
	default:
		wait = time.After(d)
	}
	stopped := false
	select {
	case <-wait:
	case <-mine:
		stopped = true
	case <-all:
		stopped = true
	}
	f.mu.Lock()
	delete(f.goals, id)
	f.mu.Unlock()
	f.rec.End(me, stopped)
	status, values := 4, map[string]any{"moved": true, "stopped": stopped}
	if stopped {
		status = 5
	} else if ok, v := contentFault(fault); ok {
		if v == nil {
			status, values = 6, map[string]any{"error_msg": "the driver refused: joint 3 fault"}
		} else {
			values = v
		}
	}
	c.srv.mu.Lock()
	defer c.srv.mu.Unlock()
	c.enqueue(map[string]any{"op": "action_result", "id": id, "action": action, "status": status, "result": true, "values": values}, true)
}

// end stops the motion of goal id; false when it is not in progress.
func (f *faultState) end(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	ch, ok := f.goals[id]
	if ok {
		close(ch)
		delete(f.goals, id)
	}
	return ok
}

// endAll stops every motion in progress.
func (f *faultState) endAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	close(f.stop)
	f.stop = make(chan struct{})
	for id, ch := range f.goals {
		close(ch)
		delete(f.goals, id)
	}
}

// publishFault publishes /fault/odom as ObserveFile says. Called with
// Server.mu held.
func (s *Server) publishFault(now time.Time) {
	if s.fault == nil {
		return
	}
	s.publishStopped()
	if !s.subscribed(FaultOdomTopic) {
		return
	}
	mode, _ := os.ReadFile(filepath.Join(s.fault.rec.Dir, faultserver.ObserveFile))
	msg := odometry(now, world{})
	switch strings.TrimSpace(string(mode)) {
	case "silent":
		return
	case "nan":
		msg["pose"].(map[string]any)["pose"].(map[string]any)["position"] = map[string]any{"x": nil, "y": nil, "z": nil}
	}
	s.deliverMsg(FaultOdomTopic, msg, false)
}

// freeze stops this socket: its reader and writer block until the server
// ends, so nothing is answered on it, pings included.
func (c *session) freeze() {
	c.freezeOnce.Do(func() { close(c.frozen) })
}
