// Package body is the body layer: what every physical tool of every
// transport kind gets — one motion at a time across timeouts, cancellations
// and restarts, the stop path (the kind's stop, stop_grace, a kill), late
// replies, uncertainty until a fresh observation, the cross-process body
// lock — over the small Backend interface a kind implements.
package body
