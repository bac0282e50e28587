// Package termesc makes untrusted text (a model's text, a tool name, a
// back-end's reason, a world file's names) safe to print on a terminal:
// Escape for plain text, EscapeJSON for encoded JSON. Every package that
// prints such text uses it, from the model's human channel to the CLI.
package termesc
