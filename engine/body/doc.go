// Package body is the body layer: what every physical tool of every
// transport kind gets — one motion at a time across timeouts, cancellations
// and restarts, the stop path (the kind's stop, stop_grace, a kill) on the
// task's record, late replies, uncertainty until a fresh observation, the
// cross-process body lock — over the small back-end contract a kind
// implements (engine.Transport, engine/transport.go). The host installs one
// Layer (engine.Components.SetBody) and the engine starts every transport
// kind's toolsets through it; no kind starts it itself.
package body
