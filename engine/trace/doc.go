// Package trace renders a task's events for people and pipes: the plain
// trace, one line per turn step (`thea run` off a terminal; the HTML report
// reuses its text), the live view on a terminal, and the raw JSONL stream
// (--json). It owns Escape, which makes every untrusted string safe to print
// on a terminal.
package trace
