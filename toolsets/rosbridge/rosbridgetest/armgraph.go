package rosbridgetest

import (
	"fmt"
	"sort"
)

// The arm's graph, in ROS 2 names: a UR-class arm on a table with a
// two-finger gripper, a raw wrist camera, a compressed scene camera, object
// detections, a light curtain and a person-distance sensor, skill actions
// of a custom package, the ros2_control controllers' actions and the
// dashboard's stop.
const (
	TopicJointStates    = "/joint_states"
	TopicTF             = "/tf"
	TopicTFStatic       = "/tf_static"
	TopicWristCamera    = "/wrist_camera/image_raw"
	TopicSceneCamera    = "/scene_camera/image_raw/compressed"
	TopicDetections     = "/detections"
	TopicLightCurtain   = "/safety/light_curtain"
	TopicPersonDistance = "/safety/person_distance"

	ActionPick       = "/pick"
	ActionPlace      = "/place"
	ActionTrajectory = "/arm_controller/follow_joint_trajectory"
	ActionGripper    = "/gripper_controller/gripper_cmd"

	// ServiceDashboardStop halts every arm motion (a UR dashboard's stop).
	ServiceDashboardStop = "/dashboard_client/stop"
	// ServiceArmCell sets the cell's safety sensors (not listed by
	// rosapi): {curtain_broken: bool, person_distance: number}, either
	// optional. It answers the arm's state.
	ServiceArmCell = "/rosbridgetest/arm_cell"

	TypeJointState          = "sensor_msgs/msg/JointState"
	TypeTFMessage           = "tf2_msgs/msg/TFMessage"
	TypeImage               = "sensor_msgs/msg/Image"
	TypeDetection3DArray    = "vision_msgs/msg/Detection3DArray"
	TypePick                = "arm_skills/action/Pick"
	TypePlace               = "arm_skills/action/Place"
	TypeFollowJointTraject  = "control_msgs/action/FollowJointTrajectory"
	TypeGripperCommand      = "control_msgs/action/GripperCommand"
	typeCancelGoal          = "action_msgs/srv/CancelGoal"
	armCancelServiceSuffix  = "/_action/cancel_goal"
	armStoppedByDashboard   = "halted by the dashboard stop"
	armStopServiceReplyText = "Stopped"
)

// armJoints are the arm's joints, in JointState order; the gripper's
// finger joint follows them.
var armJoints = [...]string{"shoulder_pan_joint", "shoulder_lift_joint", "elbow_joint", "wrist_1_joint", "wrist_2_joint", "wrist_3_joint"}

// gripperJoint is the gripper's finger joint: its opening in metres.
const gripperJoint = "finger_joint"

func armTopics() map[string]string {
	return map[string]string{
		TopicJointStates:    TypeJointState,
		TopicTF:             TypeTFMessage,
		TopicTFStatic:       TypeTFMessage,
		TopicWristCamera:    TypeImage,
		TopicSceneCamera:    TypeCompressedImage,
		TopicDetections:     TypeDetection3DArray,
		TopicLightCurtain:   TypeBool,
		TopicPersonDistance: TypeFloat32,
		"/rosout":           "rcl_interfaces/msg/Log",
		"/parameter_events": "rcl_interfaces/msg/ParameterEvent",
	}
}

func armActions() map[string]string {
	return map[string]string{
		ActionPick:       TypePick,
		ActionPlace:      TypePlace,
		ActionTrajectory: TypeFollowJointTraject,
		ActionGripper:    TypeGripperCommand,
	}
}

func armNodes() []string {
	return []string{"/arm_controller", "/dashboard_client", "/gripper_controller", "/robot_state_publisher",
		"/rosapi", "/rosbridge_websocket", "/skill_server", "/ur_ros2_control_node"}
}

// armServices are the arm's own services: the dashboard's stop, each
// action's cancel service (hidden, as rosapi lists no action internals) and
// the cell's sensor switch.
func armServices() map[string]service {
	out := map[string]service{
		ServiceDashboardStop: {typ: TypeTrigger, handler: func(s *Server, _ map[string]any) (any, error) {
			s.dashboardStop()
			return map[string]any{"success": true, "message": armStopServiceReplyText}, nil
		}},
		ServiceArmCell: {typ: "rosbridgetest/srv/ArmCell", hidden: true, handler: func(s *Server, args map[string]any) (any, error) {
			if b, ok := args["curtain_broken"].(bool); ok {
				s.arm.curtainBroken = b
			} else if v, set := args["curtain_broken"]; set && v != nil {
				return nil, fmt.Errorf("curtain_broken: expected a bool, got %T", v)
			}
			if d, ok := args["person_distance"].(float64); ok {
				s.arm.personDistance = d
			}
			return s.stateLocked().Arm, nil
		}},
	}
	for action := range armActions() {
		out[action+armCancelServiceSuffix] = service{typ: typeCancelGoal, hidden: true, handler: armCancelService(action)}
	}
	return out
}

// armCancelService is an arm action's own cancel service (roslib's
// cancelAllGoals): every goal of that action is cancelled.
func armCancelService(action string) serviceHandler {
	return func(s *Server, _ map[string]any) (any, error) {
		canceling := []any{}
		ids := []string{}
		for _, g := range s.arm.goals {
			if g.action == action {
				ids = append(ids, g.id)
				canceling = append(canceling, map[string]any{"goal_id": map[string]any{"uuid": uuidText(g.uuid)}, "stamp": stamp(g.accepted)})
			}
		}
		sort.Strings(ids)
		for _, id := range ids {
			s.cancelArmGoal(id)
		}
		code := 0
		if len(canceling) == 0 {
			code = 2
		}
		return map[string]any{"return_code": code, "goals_canceling": canceling}, nil
	}
}
