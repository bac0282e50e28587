// Package stages owns the turn pipeline's steps (task_notes, observe,
// scene_brief, compact, decide, execute, record), each a small type registered by
// name and run in the order the spec declares.
package stages
