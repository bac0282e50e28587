// Package serve owns `thea serve`: one session over HTTP for a robot's app or
// dashboard — submit a task, stream its redacted events as Server-Sent
// Events, answer the session's questions and confirmations, revise, stop,
// reset — with a bearer token required whenever it is bound off loopback,
// and its connections timed and bounded so stalled or unauthenticated
// clients cannot exhaust it.
package serve
