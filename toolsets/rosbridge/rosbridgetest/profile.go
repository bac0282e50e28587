package rosbridgetest

import "time"

// The robots the fake can be (Options.Robot): one server, one wire
// protocol, rosapi and fault contract; each robot has its own graph and
// physics.
const (
	// RobotTurtleBot is a TurtleBot with Nav2 (the default).
	RobotTurtleBot = "turtlebot"
	// RobotArm is a UR-class tabletop arm with a gripper, cameras,
	// detections, a light curtain, skill actions and a dashboard stop
	// (arm.go).
	RobotArm = "arm"
)

// graphTopics are the robot's topics, with their types.
func (s *Server) graphTopics() map[string]string {
	if s.arm != nil {
		return armTopics()
	}
	return turtlebotTopics()
}

// graphActions are the robot's action servers, with their types.
func (s *Server) graphActions() map[string]string {
	if s.arm != nil {
		return armActions()
	}
	return turtlebotActions()
}

// latched sends a latched topic's message to a new subscriber at once, as
// a transient-local publisher (tf_static) does. Called with Server.mu held.
func (s *Server) latched(topic string) {
	if s.arm != nil && topic == TopicTFStatic {
		s.deliverMsg(TopicTFStatic, tfStatic(time.Now()), false)
	}
}
