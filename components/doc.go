// Package components is the one wiring package: it registers every
// component this build ships (stages, toolset kinds, model providers, hook
// actions, user channels) into one engine.Components, with the one body
// layer every transport kind's toolsets start under (over the process's
// physical locks), and Session adds what
// every session is built with beside them (the hook policy, the skill
// loader, the profile renderer). The CLI, the tests and any embedding
// program build their sessions here; adding a component is one line.
package components
