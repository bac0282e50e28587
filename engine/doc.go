// Package engine owns one Harness session: the reactive loop as a pipeline of
// stages, the three context lifetimes, compaction, the task lifecycle, events and
// the run log. It knows no robot, tool or rule by name; implementations arrive
// through explicit registries.
package engine
