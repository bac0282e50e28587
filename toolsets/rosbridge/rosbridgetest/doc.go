// Package rosbridgetest is a fake rosbridge server (rosbridge v2, ROS 2
// actions) in front of a TurtleBot-like robot with Nav2: /scan, /odom,
// /cmd_vel, a compressed camera, /battery_state, the /navigate_to_pose
// action, the /dock service and the rosapi introspection services. It
// behaves like the real server where clients get it wrong (null for inf and
// NaN, base64 uint8[], replies named exactly as asked, goals that outlive
// their socket, errors logged on the server and never sent) and misbehaves
// on request for safety tests: a socket dropped mid-goal, cancels ignored,
// results never sent, garbage frames, fragments, motion that goes on after
// a cancel. With a fault directory it also serves the body layer's fault
// suite contract (faultcontract.go). With Options.Robot RobotArm (the
// -robot arm flag) the same server is a UR-class tabletop arm instead
// (armgraph.go, arm.go): /pick and /place skill actions, FollowJointTrajectory
// and GripperCommand, /joint_states, /tf and /tf_static, a raw rgb8 wrist
// camera and a compressed scene camera, Detection3DArray detections of a mug
// and a bin, a light curtain and a person distance (set through the hidden
// /rosbridgetest/arm_cell service), and a dashboard stop
// (/dashboard_client/stop) that halts every motion; with HangArm a goal
// ignores its cancel and moves until that stop. It runs in process (Start) or as a subprocess (Main, and
// StartProcess with a test binary). Main is also the program cmd/thea-sim-rosbridge,
// which `thea sim rosbridge` runs: only tests and that program link this package.
package rosbridgetest
