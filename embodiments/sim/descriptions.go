package sim

// Tool descriptions are contracts: what the tool does, its preconditions,
// the character of the policy behind it and what to try when it fails.
const (
	descNavigate = "Drive the base to a target (a furniture, object, drawer or room name from the map) along a planned collision-free path. " +
		"Stops at a standoff pose facing the target, a safety gap from its footprint (wide around tables): it may end just out of the arm's reach, then move_base forward a little. " +
		"Fails with a reason for an unknown target or when no path exists; the robot then has not moved. Returns the new pose, distance_to_target_m and a run_id."
	descMove = "Drive the base straight forward or backward along its heading, without planning, by distance_m metres (a differential drive: it cannot move sideways; rotate first to go another way). " +
		"Use it for short corrections, e.g. to get within reach. It stops at contact with an obstacle and reports how far it got (success false, moved_m). " +
		"The observation's clearance says how far each way is free; if blocked, rotate and drive another way or use navigate_to. Returns the new pose and a run_id."
	descRotate = "Turn the base in place by degrees (positive left, counter-clockwise). The round base turns within its own footprint, so a turn never collides, even when no direction is free to drive. " +
		"Use it to bring an object or furniture into the cameras' view, or to face a free direction before move_base. Returns the new pose and a run_id."
	descPick = "Grasp a detected object with the arm's grasping policy. Preconditions: the gripper is empty, the object is in view of a camera " +
		"and within the arm's reach (the observation gives each detected object's distance), and if it is in a drawer, that drawer is open. " +
		"The policy is reliable but not perfect: a grasp can slip; then retry. On \"too far\" move closer (move_base forward); on \"not visible\" rotate or navigate_to it. Returns held and a run_id."
	descPlace = "Put the held object on a furniture surface (relation on) or into a drawer (relation in). Preconditions: holding that object, " +
		"the target in view and within reach, a drawer open. On \"the drawer is closed\" call open_drawer first; on \"too far\" move closer. Returns a run_id."
	descOpen = "Open a drawer by its handle (e.g. top_drawer). Preconditions: the drawer is closed, its furniture in view and within reach. " +
		"The handle can slip; then retry. Returns the drawer state and a run_id."
	descClose = "Close an open drawer by its handle. Preconditions: the drawer is open, its furniture in view and within reach. " +
		"Objects inside stay inside and are no longer visible. Returns the drawer state and a run_id."
	descObserve = "Read every sensor: the clearance in four directions, the objects each camera detects (with relation on/in, target, room and distance), " +
		"the held object, the pose and room, drawer states, a one-line summary, and one labelled PNG per camera (the first camera: a top-down local map, north up; " +
		"the others: a close-up of what is within reach, heading up). Pass run_id to mark the observation as evidence for that run."
	descStop      = "Stop any motion of the base or arm at once. The harness calls it when a motion call times out or is cancelled; simulated motions finish within their call, so it reports that nothing is moving."
	descClearance = "Measure how far the base can translate forward, backward, left and right before touching an obstacle (metres, capped at 5). Read-only and fast."
)
