// Package trace renders a session for people and pipes: a task's events as
// the plain trace, one line per turn step (`thea run` off a terminal; the
// HTML report reuses its text), the live view on a terminal, and the raw
// JSONL stream (--json); and a request as `thea context` previews it. It
// sits beside the operator's views (an application: it reads run-log events
// through runlog and escapes untrusted text with internal/termesc).
package trace
