package rosbridgetest

// armDefinitions are the message, action and service types of the arm's
// graph (definitions' format), beside the TurtleBot's.
func armDefinitions() map[string][]string {
	point := "trajectory_msgs/msg/JointTrajectoryPoint"
	return map[string][]string{
		"std_msgs/msg/Bool":    {"data boolean"},
		"std_msgs/msg/Float32": {"data float"},
		"sensor_msgs/msg/JointState": {"header std_msgs/msg/Header", "name string[]", "position double[]",
			"velocity double[]", "effort double[]"},
		"sensor_msgs/msg/Image": {"header std_msgs/msg/Header", "height uint32", "width uint32", "encoding string",
			"is_bigendian uint8", "step uint32", "data uint8[]"},
		"geometry_msgs/msg/Transform": {"translation geometry_msgs/msg/Vector3", "rotation geometry_msgs/msg/Quaternion"},
		"geometry_msgs/msg/TransformStamped": {"header std_msgs/msg/Header", "child_frame_id string",
			"transform geometry_msgs/msg/Transform"},
		"tf2_msgs/msg/TFMessage":           {"transforms geometry_msgs/msg/TransformStamped[]"},
		"vision_msgs/msg/ObjectHypothesis": {"class_id string", "score double"},
		"vision_msgs/msg/BoundingBox3D":    {"center geometry_msgs/msg/Pose", "size geometry_msgs/msg/Vector3"},
		"vision_msgs/msg/Detection3DArray": {"header std_msgs/msg/Header", "detections vision_msgs/msg/Detection3D[]"},
		"vision_msgs/msg/ObjectHypothesisWithPose": {"hypothesis vision_msgs/msg/ObjectHypothesis",
			"pose geometry_msgs/msg/PoseWithCovariance"},
		"vision_msgs/msg/Detection3D": {"header std_msgs/msg/Header", "results vision_msgs/msg/ObjectHypothesisWithPose[]",
			"bbox vision_msgs/msg/BoundingBox3D", "id string"},
		"trajectory_msgs/msg/JointTrajectory": {"header std_msgs/msg/Header", "joint_names string[]", "points " + point + "[]"},
		point: {"positions double[]", "velocities double[]", "accelerations double[]", "effort double[]",
			"time_from_start builtin_interfaces/msg/Duration"},
		"control_msgs/msg/JointTolerance": {"name string", "position double", "velocity double", "acceleration double"},
		"control_msgs/msg/GripperCommand": {"position double", "max_effort double"},

		"control_msgs/action/FollowJointTrajectory_Goal": {"trajectory trajectory_msgs/msg/JointTrajectory",
			"path_tolerance control_msgs/msg/JointTolerance[]", "goal_tolerance control_msgs/msg/JointTolerance[]",
			"goal_time_tolerance builtin_interfaces/msg/Duration"},
		"control_msgs/action/FollowJointTrajectory_Result": {"error_code int32", "error_string string"},
		"control_msgs/action/FollowJointTrajectory_Feedback": {"header std_msgs/msg/Header", "joint_names string[]",
			"desired " + point, "actual " + point, "error " + point},
		"control_msgs/action/GripperCommand_Goal": {"command control_msgs/msg/GripperCommand"},
		"control_msgs/action/GripperCommand_Result": {"position double", "effort double", "stalled boolean",
			"reached_goal boolean"},
		"control_msgs/action/GripperCommand_Feedback": {"position double", "effort double", "stalled boolean",
			"reached_goal boolean"},

		"arm_skills/action/Pick_Goal":      {"object string"},
		"arm_skills/action/Pick_Result":    {"success boolean", "message string"},
		"arm_skills/action/Pick_Feedback":  {"stage string", "progress float"},
		"arm_skills/action/Place_Goal":     {"target string"},
		"arm_skills/action/Place_Result":   {"success boolean", "message string"},
		"arm_skills/action/Place_Feedback": {"stage string", "progress float"},
	}
}
