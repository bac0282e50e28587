// Package runlog is the format of a task's event stream, as the engine
// emits it and as a run log's events.jsonl holds it: Event and its kinds,
// the payloads it carries (a tool call's Envelope, a hook's decision, a
// model call, what ended the task, a stop of an interrupted motion, the
// episode's provenance). Readers of a run log (report, episode, the trace
// renderer, serve) import this package, not the engine.
//
// It sits in the core layer below the engine and imports only the schema,
// the model contract (engine/model) and the internal helpers; the JSON
// shape of every type here is the run log's, so a change to it is a change
// to every run log written before.
package runlog
