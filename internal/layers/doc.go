// Package layers holds the test that keeps the packages' dependencies
// pointing one way: internal helpers and schema at the bottom, the engine
// above them, the implementations (stages, toolsets, policies, skills,
// embodiments, model providers) above it, the applications and the one
// wiring package above those, the CLI on top. It has no code of its own.
package layers
