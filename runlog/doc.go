// Package runlog is the format of a task's event stream, as the engine
// emits it and as a run log's events.jsonl holds it, and its one owner:
// Event and its kinds, the payloads it carries (a tool call's Envelope, a
// hook's decision and a person's Confirmation, a model call, what ended
// the task, a stop of an interrupted motion, the episode's provenance);
// Line, the one line type; EventsFile, the one file name; the Writer the
// engine's run log is, and the Reader (Read, ReadDir, Parse) every reader
// of a run log or episode goes through (report, episode and replay, serve,
// the chaos check), bounded and with errors at file:line. Readers import
// this package, not the engine.
//
// It sits in the core layer below the engine and imports only the schema,
// the model contract (engine/model) and the internal helpers; the JSON
// shape of every type here is the run log's, so a change to it is a change
// to every run log written before (see Format).
package runlog
