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
