// Package user owns the user channels behind query_user and notify_user: a
// terminal channel for interactive sessions and a script channel that answers
// from a YAML file or from Go, for tests and demos.
package user
