// Package replay owns the "replay" model provider and the episode file it
// reads: a run log (events.jsonl) whose model_call events are fed back in
// order, one queue per purpose, while the harness runs for real.
package replay
