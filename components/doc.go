// Package components is the one wiring package: it registers every
// component this build ships (stages, toolset kinds, model providers, hook
// actions, user channels) into an engine.Catalog. The CLI, tests and any
// embedding program build their catalog here; adding a component is one line.
package components
