// Package channels owns the user channels behind query_user and notify_user: a
// terminal channel for interactive sessions (confirmations read from the
// controlling terminal), a script channel that answers from a YAML file or
// from Go, for tests and demos, and none, for a robot with nobody to ask.
package channels
