// Package components is the one wiring package: it registers every
// component this build ships (stages, toolset kinds, model providers, hook
// actions, user channels) into one engine.Components. The CLI, tests and any
// embedding program build their components here; adding one is one line.
package components
