package rosbridgetest

import (
	"encoding/base64"
	"fmt"
	"math"
	"time"
)

// The arm's cell: where the objects are (metres, frame "world") and the
// joint positions its skills move to (radians).
var (
	armHome      = [6]float64{0, -1.57, 1.57, -1.57, -1.57, 0}
	armPickPose  = [6]float64{0.32, -1.1, 1.75, -2.2, -1.57, 0.32}
	armPlacePose = [6]float64{-0.86, -1.2, 1.6, -1.97, -1.57, -0.86}
)

const (
	gripperOpen   = 0.085 // the finger opening, m
	gripperOnMug  = 0.062 // closed on the mug's handle
	gripperClosed = 0.0
	// personDefault is the person distance with nobody near, m.
	personDefault = 3.5
)

// The places the mug can be.
const (
	mugOnTable   = "table"
	mugInGripper = "gripper"
	mugInBin     = "bin"
)

// armWorld is the arm's state. It is guarded by Server.mu.
type armWorld struct {
	joints         [6]float64
	gripper        float64
	mug            string
	curtainBroken  bool
	personDistance float64
	goals          []*armGoal // moving, oldest first; the newest drives the joints
	stops          int        // dashboard stops received
	goalsInCurtain int        // goals received while the curtain was broken
}

func newArmWorld() *armWorld {
	return &armWorld{joints: armHome, gripper: gripperOpen, mug: mugOnTable, personDistance: personDefault}
}

// armGoal is a goal of one of the arm's actions. Like a navGoal it belongs
// to the server, not to the socket that sent it.
type armGoal struct {
	id, action string
	uuid       [16]byte
	accepted   time.Time
	owner      *session
	feedback   bool
	ticks      int
	total      int // ticks to the end of the motion
	from, to   [6]float64
	grip       float64 // the gripper's opening at the end (pick, place, gripper)
	object     string  // pick's object, place's target
	// hang: the goal moves for ever and ignores its cancel and any
	// preemption (Faults.HangArm); only the dashboard stop ends it.
	hang bool
}

// acceptArmGoal starts a goal on one of the arm's actions; one the arm
// cannot run aborts at once. A newer goal preempts the one moving (aborted,
// as ros2_control's controllers do), except a hung one, which moves on: two
// motions at once (MaxMotions).
func (s *Server) acceptArmGoal(c *session, action, id string, args any, feedback bool) {
	a := s.arm
	s.goalsReceived++
	if a.curtainBroken {
		a.goalsInCurtain++
	}
	m, _ := args.(map[string]any)
	g := &armGoal{id: id, action: action, uuid: newUUID(), accepted: time.Now(), owner: c, feedback: feedback,
		from: a.joints, to: a.joints, grip: a.gripper, hang: s.faults.HangArm}
	ticksOf := func(d time.Duration) int { return max(1, int(d/s.opts.Tick)) }
	switch action {
	case ActionPick:
		g.object, _ = m["object"].(string)
		g.to, g.grip, g.total = armPickPose, gripperOnMug, ticksOf(s.opts.ArmMotion)
	case ActionPlace:
		g.object, _ = m["target"].(string)
		if g.object == "" {
			g.object = mugInBin
		}
		g.to, g.grip, g.total = armPlacePose, gripperOpen, ticksOf(s.opts.ArmMotion)
	case ActionTrajectory:
		to, d, err := trajectoryEnd(m, a.joints)
		if err != nil {
			s.finishArmGoal(g, 6, false, err.Error())
			return
		}
		g.to, g.total = to, ticksOf(d)
	case ActionGripper:
		cmd, _ := m["command"].(map[string]any)
		pos, _ := cmd["position"].(float64)
		g.grip, g.total = math.Max(gripperClosed, math.Min(gripperOpen, pos)), ticksOf(s.opts.ArmMotion/2)
	}
	for _, old := range a.goals {
		if !old.hang {
			s.finishArmGoal(old, 6, false, "preempted by a newer goal")
		}
	}
	kept := a.goals[:0]
	for _, old := range a.goals {
		if old.hang {
			kept = append(kept, old)
		}
	}
	a.goals = append(kept, g)
	s.maxMotions = max(s.maxMotions, len(a.goals))
}

// trajectoryEnd reads a FollowJointTrajectory goal: its last point's
// positions (joints it does not name keep theirs) and time_from_start.
func trajectoryEnd(goal map[string]any, now [6]float64) ([6]float64, time.Duration, error) {
	tr, _ := goal["trajectory"].(map[string]any)
	names, _ := tr["joint_names"].([]any)
	points, _ := tr["points"].([]any)
	if len(points) == 0 {
		return now, 0, fmt.Errorf("the trajectory has no points")
	}
	last, _ := points[len(points)-1].(map[string]any)
	pos, _ := last["positions"].([]any)
	if len(pos) != len(names) {
		return now, 0, fmt.Errorf("the last point has %d positions for %d joints", len(pos), len(names))
	}
	out := now
	for i, n := range names {
		j := -1
		for k, name := range armJoints {
			if name == n {
				j = k
			}
		}
		v, ok := pos[i].(float64)
		if j < 0 || !ok {
			return now, 0, fmt.Errorf("joint %v is not one of the arm's", n)
		}
		out[j] = v
	}
	tfs, _ := last["time_from_start"].(map[string]any)
	sec, _ := tfs["sec"].(float64)
	nsec, _ := tfs["nanosec"].(float64)
	return out, time.Duration(sec*float64(time.Second) + nsec), nil
}

// stepArm advances the arm by one tick. Called with Server.mu held.
func (s *Server) stepArm(now time.Time) {
	a := s.arm
	s.w.tick++
	s.maxMotions = max(s.maxMotions, len(a.goals))
	for i := len(a.goals) - 1; i >= 0; i-- {
		g := a.goals[i]
		g.ticks++
		frac := math.Min(1, float64(g.ticks)/float64(g.total))
		if g.hang { // back and forth along its path, never arriving
			frac = 0.5 - 0.5*math.Cos(float64(g.ticks)/float64(g.total)*math.Pi)
			frac *= 0.9
		}
		if i == len(a.goals)-1 {
			for j := range a.joints {
				a.joints[j] = g.from[j] + (g.to[j]-g.from[j])*frac
			}
		}
		if g.feedback && (g.ticks == 1 || g.ticks%5 == 0) {
			s.armFeedback(g, frac, now)
		}
		if !g.hang && frac >= 1 {
			a.goals = append(a.goals[:i], a.goals[i+1:]...)
			s.arriveArm(g)
		}
	}
	s.publishArm(s.w.tick, now)
}

// arriveArm ends a goal that reached its end: the skill's effect, then its
// result. A skill that cannot do what it was asked answers SUCCEEDED with
// success false, as skill servers often do.
func (s *Server) arriveArm(g *armGoal) {
	a := s.arm
	switch g.action {
	case ActionPick:
		if g.object != "mug" || a.mug != mugOnTable {
			s.finishArmGoal(g, 4, false, fmt.Sprintf("no %q within reach on the table", g.object))
			return
		}
		a.mug, a.gripper = mugInGripper, g.grip
		s.finishArmGoal(g, 4, true, "picked the mug")
	case ActionPlace:
		if a.mug != mugInGripper {
			s.finishArmGoal(g, 4, false, "the gripper holds nothing")
			return
		}
		if g.object != mugInBin && g.object != mugOnTable {
			s.finishArmGoal(g, 4, false, fmt.Sprintf("unknown place %q (bin or table)", g.object))
			return
		}
		a.mug, a.gripper = g.object, gripperOpen
		s.finishArmGoal(g, 4, true, "placed the mug in the "+g.object)
	case ActionGripper:
		if a.mug == mugInGripper && g.grip > gripperOnMug {
			a.mug = mugOnTable // opened over the table: dropped
		}
		a.gripper = g.grip
		if a.mug == mugInGripper {
			a.gripper = gripperOnMug
		}
		s.finishArmGoal(g, 4, true, "")
	default:
		a.joints = g.to
		s.finishArmGoal(g, 4, true, "")
	}
}

// cancelArmGoal handles a cancel by goal id from any socket.
func (s *Server) cancelArmGoal(id string) {
	a := s.arm
	for i, g := range a.goals {
		if g.id != id {
			continue
		}
		if g.hang || s.faults.IgnoreCancel {
			s.cancelsIgnored++
			s.logf("cancel of goal %s on %s ignored (fault)", g.id, g.action)
			return
		}
		a.goals = append(a.goals[:i], a.goals[i+1:]...)
		s.finishArmGoal(g, 5, false, "canceled")
		return
	}
}

// dashboardStop halts every arm motion, hung ones too: each goal aborts.
// Called with Server.mu held.
func (s *Server) dashboardStop() {
	a := s.arm
	a.stops++
	goals := a.goals
	a.goals = nil
	for _, g := range goals {
		s.finishArmGoal(g, 6, false, armStoppedByDashboard)
	}
	if len(goals) > 0 {
		s.logf("dashboard stop: %d goal(s) halted", len(goals))
	}
}

// finishArmGoal counts a goal's end and sends its result, in its action's
// result type, to the socket that sent it if that socket is still there.
func (s *Server) finishArmGoal(g *armGoal, status int, success bool, msg string) {
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
	var values map[string]any
	switch g.action {
	case ActionTrajectory:
		code := 0
		if status != 4 {
			code = -5 // GOAL_TOLERANCE_VIOLATED: the closest a halted trajectory has
		}
		values = map[string]any{"error_code": code, "error_string": msg}
	case ActionGripper:
		held := s.arm.mug == mugInGripper
		values = map[string]any{"position": s.arm.gripper, "effort": 0.0, "stalled": held, "reached_goal": status == 4 && !held}
	default:
		values = map[string]any{"success": success, "message": msg}
	}
	frame := map[string]any{"op": "action_result", "id": g.id, "action": g.action, "status": status, "result": true, "values": values}
	if !g.owner.enqueue(frame, true) {
		s.resultsLost++
		s.logf("result of goal %s (status %d) lost: its socket is gone", g.id, status)
	}
}

// armFeedback sends a goal's feedback in its action's feedback type.
func (s *Server) armFeedback(g *armGoal, frac float64, now time.Time) {
	var values map[string]any
	switch g.action {
	case ActionTrajectory:
		point := map[string]any{"positions": s.arm.joints[:], "velocities": []float64{}, "accelerations": []float64{},
			"effort": []float64{}, "time_from_start": duration(now.Sub(g.accepted))}
		values = map[string]any{"header": header(now, "base_link"), "joint_names": armJoints[:], "desired": point, "actual": point, "error": point}
	case ActionGripper:
		values = map[string]any{"position": s.arm.gripper, "effort": 0.0, "stalled": false, "reached_goal": false}
	default:
		values = map[string]any{"stage": "moving", "progress": frac}
	}
	g.owner.enqueue(map[string]any{"op": "action_feedback", "id": g.id, "action": g.action, "values": values}, true)
	if s.faults.DropMidGoal && g.ticks == 1 {
		g.owner.dropAfterQueued()
	}
}

// armState snapshots the arm. Called with Server.mu held.
func (s *Server) armState() *ArmState {
	a := s.arm
	if a == nil {
		return nil
	}
	st := &ArmState{Joints: a.joints, Gripper: a.gripper, Mug: a.mug, CurtainBroken: a.curtainBroken,
		PersonDistance: a.personDistance, Moving: len(a.goals) > 0, DashboardStops: a.stops,
		GoalsWhileCurtainBroken: a.goalsInCurtain}
	for _, g := range a.goals {
		st.Goals = append(st.Goals, GoalState{ID: g.id, Action: g.action, Orphaned: g.owner.isClosed()})
	}
	return st
}

func uuidText(u [16]byte) string { return base64.StdEncoding.EncodeToString(u[:]) }
