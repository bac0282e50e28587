// Package engine owns one Harness session: the reactive loop as a pipeline of
// stages, the three context lifetimes, compaction, the task lifecycle, events and
// the run log, and the guarantees every tool of every kind gets (argument
// checks, result caps, one panic recovery). It knows no robot, tool or rule by
// name; implementations arrive through explicit registries.
package engine
