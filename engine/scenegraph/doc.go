// Package scenegraph owns the harness's working Scene Graph: one ref per
// object instance, containers with their state, places and the robot, typed
// relations with provenance and freshness in one frame; it merges every
// Observation, applies a tool's declared effects after a confirmed success,
// renders the compact Brief and answers the look-up tools. A name is one
// thing whichever group of an observation reports it (detections, state
// groups, held), whichever relation targets it and whichever effect names
// it: every path resolves names through one rule (identity.go).
package scenegraph
