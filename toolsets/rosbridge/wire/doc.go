// Package wire is a client of the rosbridge v2 protocol (JSON over
// WebSocket, the ROS 2 branch with actions): topics with a latest-message
// cache, publishing, service calls and action goals, over one socket that
// reconnects by itself and tells its owner when it did, because a goal sent
// before a drop may still be moving the robot.
//
// It speaks rosbridge as deployed: replies matched by id and by the exact
// name sent, fragments reassembled within bounds, ±inf and NaN read as null
// (also when a server sends them as bare tokens), uint8[] as base64, and
// every frame it cannot use counted rather than trusted.
package wire
