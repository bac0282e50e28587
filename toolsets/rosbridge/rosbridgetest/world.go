package rosbridgetest

import (
	"crypto/rand"
	"fmt"
	"math"
	"sort"
	"time"
)

// The room the robot drives in (metres, odom frame) and its dock.
const (
	roomMinX, roomMaxX = -1.5, 3.5
	roomMinY, roomMaxY = -1.5, 1.5
	wallMargin         = 0.15 // the base's radius: it stops this far from a wall
	dockX, dockY       = 0.0, 0.0
	dockRange          = 0.5
	arriveTolerance    = 1e-3
)

// world is the robot's state. It is guarded by Server.mu.
type world struct {
	x, y, yaw  float64
	v, w       float64 // the base's velocity now
	cmdV, cmdW float64 // the last cmd_vel
	cmdAt      time.Time
	battery    float64
	docked     bool
	tick       uint64
	goals      []*navGoal // driving, oldest first; the newest steers
	// The safety sensors beside the base: a light curtain and a person
	// distance (NaN: nobody seen).
	curtainClear   bool
	personDistance float64
}

// navGoal is a NavigateToPose goal. It belongs to the server, not to the
// socket that sent it: rosbridge keeps running a goal whose client left.
type navGoal struct {
	id, action string
	uuid       [16]byte
	accepted   time.Time
	tx, ty     float64
	tyaw       float64
	owner      *session // where feedback and result go; may be closed
	feedback   bool
	ticks      int
	ghost      bool // answered as canceled, drives on (KeepMovingAfterCancel)
}

func newWorld() world { return world{battery: 0.87, curtainClear: true, personDistance: 3} }

func newUUID() [16]byte {
	var u [16]byte
	_, _ = rand.Read(u[:]) // never fails on Linux; a zero uuid is still usable
	return u
}

// insideRoom reports whether a point is reachable.
func insideRoom(x, y float64) bool {
	return x >= roomMinX+wallMargin && x <= roomMaxX-wallMargin && y >= roomMinY+wallMargin && y <= roomMaxY-wallMargin
}

// step advances the world by one tick. Called with Server.mu held.
func (s *Server) step(now time.Time) {
	if s.arm != nil {
		s.stepArm(now)
		return
	}
	w := &s.w
	w.tick++
	dt := s.opts.Tick.Seconds()
	cmdFresh := !w.cmdAt.IsZero() && (s.opts.CmdVelTimeout <= 0 || now.Sub(w.cmdAt) < s.opts.CmdVelTimeout)
	motions := len(w.goals)
	if cmdFresh && (w.cmdV != 0 || w.cmdW != 0) {
		motions++
	}
	s.maxMotions = max(s.maxMotions, motions)

	if n := len(w.goals); n > 0 {
		g := w.goals[n-1]
		g.ticks++
		dx, dy := g.tx-w.x, g.ty-w.y
		dist := math.Hypot(dx, dy)
		stride := s.opts.NavSpeed * dt
		if dist <= stride+arriveTolerance {
			w.x, w.y, w.yaw = g.tx, g.ty, g.tyaw
			w.v, w.w = 0, 0
			w.goals = w.goals[:n-1]
			if !g.ghost {
				s.finishGoal(g, 4, "")
			}
		} else {
			w.yaw = math.Atan2(dy, dx)
			w.x += dx / dist * stride
			w.y += dy / dist * stride
			w.v, w.w = s.opts.NavSpeed, 0
			if g.feedback && !g.ghost && (g.ticks == 1 || g.ticks%5 == 0) {
				s.sendFeedback(g, dist-stride, now)
			}
		}
	} else if cmdFresh {
		w.v, w.w = w.cmdV, w.cmdW
		w.yaw = math.Remainder(w.yaw+w.w*dt, 2*math.Pi)
		nx := w.x + w.v*math.Cos(w.yaw)*dt
		ny := w.y + w.v*math.Sin(w.yaw)*dt
		if insideRoom(nx, ny) {
			w.x, w.y = nx, ny
		} else {
			w.v = 0 // bumped a wall
		}
	} else {
		w.v, w.w = 0, 0
	}
	if w.v != 0 || w.w != 0 {
		w.docked = false
		w.battery = math.Max(0, w.battery-1e-5)
	} else if w.docked {
		w.battery = math.Min(1, w.battery+1e-4)
	}
	s.publishTopics(w.tick, now)
}

// acceptGoal starts a goal: it preempts the goal driving now (aborted, as
// Nav2 does), and one outside the room aborts at once.
func (s *Server) acceptGoal(g *navGoal) {
	s.goalsReceived++
	if !insideRoom(g.tx, g.ty) {
		s.finishGoal(g, 6, fmt.Sprintf("goal (%.2f, %.2f) is outside the map", g.tx, g.ty))
		return
	}
	w := &s.w
	ghosts := 0
	for _, old := range w.goals {
		if old.ghost {
			ghosts++
		} else {
			s.finishGoal(old, 6, "preempted by a newer goal")
		}
	}
	// The robot follows the newest goal; a ghost still driving would fight
	// it, which counts as two motions at once (MaxMotions).
	s.maxMotions = max(s.maxMotions, ghosts+1)
	w.goals = []*navGoal{g}
}

// cancelGoal handles a cancel by goal id from any socket.
func (s *Server) cancelGoal(id string) {
	if s.arm != nil {
		s.cancelArmGoal(id)
		return
	}
	w := &s.w
	for i, g := range w.goals {
		if g.id != id || g.ghost {
			continue
		}
		s.cancelAt(i)
		return
	}
}

// cancelAt cancels the i-th driving goal, as the faults allow.
func (s *Server) cancelAt(i int) {
	w := &s.w
	g := w.goals[i]
	switch {
	case s.faults.IgnoreCancel:
		s.cancelsIgnored++
		s.logf("cancel of goal %s ignored (fault)", g.id)
	case s.faults.KeepMovingAfterCancel:
		g.ghost = true
		s.finishGoal(g, 5, "")
	default:
		w.goals = append(w.goals[:i], w.goals[i+1:]...)
		w.v, w.w = 0, 0
		s.finishGoal(g, 5, "")
	}
}

// finishGoal counts a goal's end and sends its result to the socket that
// sent it, if that socket is still there.
func (s *Server) finishGoal(g *navGoal, status int, reason string) {
	switch status {
	case 4:
		s.goalsSucceeded++
	case 5:
		s.goalsCanceled++
	case 6:
		s.goalsAborted++
	}
	if s.faults.NoResult {
		return
	}
	code := 0
	if status == 6 {
		code = 9000 // nav2_msgs NavigateToPose UNKNOWN
	}
	frame := map[string]any{
		"op": "action_result", "id": g.id, "action": g.action, "status": status, "result": true,
		"values": map[string]any{"error_code": code, "error_msg": reason},
	}
	if !g.owner.enqueue(frame, true) {
		s.resultsLost++
		s.logf("result of goal %s (status %d) lost: its socket is gone", g.id, status)
	}
}

// sendFeedback sends NavigateToPose feedback, and drops the socket after
// the first one when DropMidGoal is on.
func (s *Server) sendFeedback(g *navGoal, remaining float64, now time.Time) {
	elapsed := now.Sub(g.accepted)
	eta := time.Duration(remaining / s.opts.NavSpeed * float64(time.Second))
	frame := map[string]any{
		"op": "action_feedback", "id": g.id, "action": g.action,
		"values": map[string]any{
			"current_pose":             poseStamped(now, "map", s.w.x, s.w.y, s.w.yaw),
			"navigation_time":          duration(elapsed),
			"estimated_time_remaining": duration(eta),
			"number_of_recoveries":     0,
			"distance_remaining":       remaining,
		},
	}
	g.owner.enqueue(frame, true)
	if s.faults.DropMidGoal && g.ticks == 1 {
		g.owner.dropAfterQueued()
	}
}

// stateLocked snapshots the state. Called with Server.mu held.
func (s *Server) stateLocked() State {
	w := s.w
	st := State{
		X: w.x, Y: w.y, Yaw: w.yaw, Linear: w.v, Angular: w.w,
		Moving: w.v != 0 || w.w != 0 || len(w.goals) > 0, Docked: w.docked, Battery: w.battery,
		Connections: len(s.sessions), Accepted: s.accepted, Refused: s.refused,
		GoalsReceived: s.goalsReceived, GoalsSucceeded: s.goalsSucceeded, GoalsCanceled: s.goalsCanceled,
		GoalsAborted: s.goalsAborted, CancelsIgnored: s.cancelsIgnored, ResultsLost: s.resultsLost,
		FragmentsSent: s.fragmentsSent,
		CmdVel:        s.cmdVelCount, LastCmdVel: [2]float64{w.cmdV, w.cmdW}, MaxMotions: s.maxMotions,
		Subscriptions: append([]SubscriptionState(nil), s.subsSeen...),
		ServiceCalls:  map[string]int{},
		Errors:        append([]string(nil), s.errors...),
		Arm:           s.armState(),
	}
	for k, v := range s.serviceCalls {
		st.ServiceCalls[k] = v
	}
	st.CurtainClear, st.PersonDistance = w.curtainClear, w.personDistance
	if math.IsNaN(st.PersonDistance) {
		st.PersonDistance = -1 // JSON has no NaN
	}
	st.Published = map[string]int{}
	for k, v := range s.published {
		st.Published[k] = v
	}
	for t := range s.held {
		st.Held = append(st.Held, t)
	}
	sort.Strings(st.Held)
	for _, g := range w.goals {
		st.Goals = append(st.Goals, GoalState{ID: g.id, Action: g.action, TargetX: g.tx, TargetY: g.ty,
			Canceled: g.ghost, Orphaned: g.owner.isClosed()})
	}
	return st
}
