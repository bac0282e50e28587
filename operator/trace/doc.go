// Package trace renders a session for people and pipes: a task's events as
// the plain trace, one line per turn step (`thea run` off a terminal; the
// HTML report reuses its text), the live view on a terminal, and the raw
// JSONL stream (--json); and a request as `thea context` previews it. It
// owns Escape, which makes every untrusted string safe to print on a
// terminal.
package trace
