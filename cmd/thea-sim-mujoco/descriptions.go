//go:build mujoco && cgo

package main

const (
	descPick = "Pick up an object from the table with the parallel gripper: the arm comes down around it, " +
		"closes with a limited force and lifts. A smooth, heavy object can slip out."
	descPlace   = "Put the held object in the bin or on the plate; the gripper opens over it."
	descMove    = "Move the tool point (between the fingers) to x, y, z in metres, in a straight line."
	descObserve = "The current observation: gripper, tool point, joints, what the overhead camera sees, " +
		"the light curtain, and camera images when the simulator renders."
	descClearance = "Distances from mj_ray: down (free space below the fingers) and curtain (how far the " +
		"light curtain's beam runs before something breaks it; its full width when clear)."
	descJudge = "Judge an outcome from the simulation's state: with object_name, that it is held; with " +
		"target, that the object rests there; with neither, the episode task's own success."
	descReset = "Start a new episode: rebuild the scene from a seed (object poses, friction, mass) for a task."
	descStop  = "Stop any motion (every motion completes within its own call)."
)

const (
	descOpenDrawer     = "Drive up to the drawer, grip its handle and pull it open. A stiff drawer can pull out of the grip."
	descCloseDrawer    = "Drive up to the open drawer and push it shut with the closed gripper."
	descMoveBase       = "Drive the base to x, y (metres, map frame) in a straight line; it stops if it bumps into something."
	descKitchenObserve = "The current observation: the base's pose and clearance, the gripper, the drawer's state, " +
		"and camera images when the simulator renders."
	descBaseClearance = "Free distance from the base's edges (mj_ray): front, back, left, right, in metres."
	descKitchenJudge  = "Judge the drawer's state from the simulation: with state (open or closed), that it is in it; " +
		"with neither, the episode task's own success."
)
