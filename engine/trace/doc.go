// Package trace renders a task's events as the readable live trace: one line
// per turn step (the CLI's `thea run` output; the HTML report reuses it), and
// owns Escape, which makes every untrusted string safe to print on a
// terminal.
package trace
