// Package layers holds the test that keeps the packages' dependencies
// pointing one way: internal helpers and schema at the bottom, the engine's
// core above them (engine/... and the run-log format, runlog), the
// implementations (stages, toolsets, policies, skills, embodiments, the
// model providers under models/, the user channels under channels/) above
// it, the applications (operator and its trace renderer among them) and the
// one wiring package above those, the CLI on top. It has no code of its
// own.
package layers
