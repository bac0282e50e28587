// Package scenegraph owns the harness's working Scene Graph: world state
// distilled from Observation detections (what, where, seen by which source,
// when), its compact Brief with source and freshness metadata, and lookup.
package scenegraph
