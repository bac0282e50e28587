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
// suite contract (faultcontract.go). It runs in process (Start) or as a subprocess (Main, and
// StartProcess with a test binary).
package rosbridgetest
