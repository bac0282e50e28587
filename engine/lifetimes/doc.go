// Package lifetimes holds the context of one session in its three
// lifetimes, as each decide request is made of them: Resident (the system
// message and the tool definitions), Accumulated (instructions, Task Notes
// updates, model responses, compact tool results, compaction checkpoints)
// and the Refreshed tail (the whole current Task Notes, Scene Graph Brief
// and Observation), built fresh before each call and never stored.
//
// Store renders the request (Resident, then Accumulated, then the tail,
// the cache breakpoints at the end of what the next request repeats),
// estimates its tokens per lifetime, and consumes images after the call
// that sends them. Compactor replaces an older prefix of Accumulated
// context by one checkpoint, through ordered summary rounds over the
// prefix's sanitised text (payloads and images as placeholders), keeping
// the retained tail and the latest Task Notes update verbatim; CompactTo
// bounds the retained tail so the request comes down to a target size.
// RequestMemo redacts the decide requests walking only the messages that
// changed.
//
// The engine's turn decides when each of these runs; this package knows
// no stage, tool or event, and never imports the engine.
package lifetimes
