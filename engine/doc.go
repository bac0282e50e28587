// Package engine owns one Harness session: the reactive loop as a pipeline of
// stages around the fixed turn it owns, unexported (decide → pre-hooks →
// tool → post-hooks → effects → record → failure budget, so no hook can be
// skipped), the small Turn API the context stages use, when to compact, the
// task lifecycle, the event bus and the run log (the events' format is
// runlog's); the tool protocol (Tool, the flat registry; a call's result is
// a runlog.Envelope) and the guarantees every tool of every kind gets
// (argument checks, result caps, one panic recovery); each tool's one
// effective contract (contract.go: the spec's merged with what its
// transport declares, read by hooks, the body layer, effects and the
// operator view) and the one call path with a declared Purpose
// (purpose.go: a physical tool only through the hook chain, the harness's
// reads only of tools that are not physical; no exported method runs a
// tool around its hooks); the back-end contract
// a transport kind implements, which it starts only under the host's body
// layer (engine/body: motion safety); and the interfaces its
// implementations satisfy (stages, toolset kinds, model providers under
// models/, policies, user channels under channels/). It knows no robot, tool
// or rule by name: implementations arrive as Components, which one wiring
// package fills. The three context lifetimes (the store, the request it
// renders, the token estimate, compaction's mechanics, the redaction memo)
// are engine/lifetimes, which never imports the engine.
package engine
