// Package rosbridge is the toolset kind "rosbridge": a ROS 2 robot behind
// rosbridge_server, driven by spec alone. The spec declares the tools (each
// an action goal, a service call or a bounded publish, its message built
// from the tool's arguments by expr), the observation (cameras, pose, any
// field of any topic) and the clearance sectors read from a LaserScan. Every
// call goes through the body layer (engine/body): an action's
// cancel_action_goal is the body's stop path, a publish ends with an
// explicit zero message, and a dropped socket leaves the body uncertain
// with every goal that may still run cancelled on reconnect.
//
// Its rooms: wire is the transport (rosbridge v2 over WebSocket), graph
// reads the running graph through rosapi (the live check here and
// `thea init --from-ros` use it), and this package is the kind itself: its
// config, the section, the call path, the stop and the observation.
package rosbridge
