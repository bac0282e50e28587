// Package chaos drives many short episodes of a real session (the engine,
// the OpenAI adapter against a local misbehaving model server, a fault
// server subprocess as the robot's back-end) under seeded fault schedules,
// and checks the harness's invariants after each: never two motions at once,
// exactly one done per task, a run log that is valid and loses nothing, no
// secret in any sink, and a session still usable for the next task. A seed
// reproduces a schedule exactly (`make chaos SEED=...`).
package chaos
