// Package serve owns `thea serve`: one session over HTTP for a robot's app or
// dashboard — submit a task, stream its redacted events as Server-Sent
// Events, answer the session's questions and confirmations, revise, stop,
// reset — and the operator's web console (console/, embedded) that does the
// same from a browser, showing the cameras' frames the server keeps in
// memory. A bearer token is required whenever it is bound off loopback (a
// browser trades it for a read-only cookie), and its connections are timed
// and bounded so stalled or unauthenticated clients cannot exhaust it.
package serve
