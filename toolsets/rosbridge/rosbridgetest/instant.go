package rosbridgetest

import (
	"fmt"
	"strings"
)

// Instant actions: action servers that answer a goal at once, without
// driving the base, for the tests of how a result is judged and how a
// structured goal is built. They are in every fake's graph.
const (
	// ActionSkill is a skill server (a pick): its result says success and
	// a message; with Faults.SkillFails it answers SUCCEEDED with
	// success: false, as a skill server that failed its task does.
	ActionSkill = "/skill"
	TypeSkill   = "rosbridgetest_msgs/action/Skill"
	// ActionTrajectoryEcho is a FollowJointTrajectory server that checks
	// the goal against control_msgs' definition and answers SUCCEEDED with
	// a summary of the trajectory it received in error_string.
	ActionTrajectoryEcho = "/echo_controller/follow_joint_trajectory"
	TypeFollowJointTraj  = "control_msgs/action/FollowJointTrajectory"
)

// instantActions are the instant action servers, with their types.
func instantActions() map[string]string {
	return map[string]string{ActionSkill: TypeSkill, ActionTrajectoryEcho: TypeFollowJointTraj}
}

// instantDefinitions are the message definitions of the instant actions
// (see definitions).
func instantDefinitions() map[string][]string {
	return map[string][]string{
		"rosbridgetest_msgs/action/Skill_Goal":     {"object string"},
		"rosbridgetest_msgs/action/Skill_Result":   {"success boolean", "message string"},
		"rosbridgetest_msgs/action/Skill_Feedback": {},
		"trajectory_msgs/msg/JointTrajectoryPoint": {"positions double[]", "velocities double[]",
			"accelerations double[]", "effort double[]", "time_from_start builtin_interfaces/msg/Duration"},
		"trajectory_msgs/msg/JointTrajectory": {"header std_msgs/msg/Header", "joint_names string[]",
			"points trajectory_msgs/msg/JointTrajectoryPoint[]"},
		"control_msgs/action/FollowJointTrajectory_Goal": {"trajectory trajectory_msgs/msg/JointTrajectory",
			"goal_time_tolerance builtin_interfaces/msg/Duration"},
		"control_msgs/action/FollowJointTrajectory_Result":   {"error_code int32", "error_string string"},
		"control_msgs/action/FollowJointTrajectory_Feedback": {"joint_names string[]"},
	}
}

// instantResult answers a goal of an instant action (already checked
// against its type); ok is false for an action that is not one. Called
// with Server.mu held.
func (s *Server) instantResult(action string, args any) (values map[string]any, ok bool) {
	goal, _ := args.(map[string]any)
	switch slashed(action) {
	case ActionSkill:
		object, _ := goal["object"].(string)
		if s.faults.SkillFails {
			return map[string]any{"success": false, "message": "the gripper closed on nothing: no " + object + " there"}, true
		}
		return map[string]any{"success": true, "message": "picked " + object}, true
	case ActionTrajectoryEcho:
		return map[string]any{"error_code": 0, "error_string": trajectorySummary(goal)}, true
	}
	return nil, false
}

// trajectorySummary says what a FollowJointTrajectory goal asked for:
// each point's positions and time_from_start.
func trajectorySummary(goal map[string]any) string {
	tr, _ := goal["trajectory"].(map[string]any)
	points, _ := tr["points"].([]any)
	var parts []string
	for _, p := range points {
		pt, _ := p.(map[string]any)
		tfs, _ := pt["time_from_start"].(map[string]any)
		parts = append(parts, fmt.Sprintf("%v at %v s %v ns", pt["positions"], tfs["sec"], tfs["nanosec"]))
	}
	return fmt.Sprintf("%d points: %s", len(points), strings.Join(parts, "; "))
}

// sendInstantResult counts and answers an instant goal.
func (c *session) sendInstantResult(action string, id any, values map[string]any) {
	s := c.srv
	s.goalsReceived++
	s.goalsSucceeded++
	frame := map[string]any{"op": "action_result", "action": action, "status": 4, "result": true, "values": values}
	if id != nil {
		frame["id"] = id
	}
	c.enqueue(frame, true)
}
