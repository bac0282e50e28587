// Package scenegraph owns the harness's working Scene Graph: one ref per
// object instance, containers with their state, places and the robot, typed
// relations with provenance and freshness in one frame; it merges every
// Observation, applies a tool's declared effects after a confirmed success,
// renders the compact Brief and answers the look-up tools.
package scenegraph
