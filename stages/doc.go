// Package stages owns the context stages of a turn (task_notes, observe,
// scene_brief, compact), each a small type registered by name, run in the
// order the spec declares and working only through engine.Turn's few
// methods; the fixed turn (decide, execute, record) is the engine's.
package stages
