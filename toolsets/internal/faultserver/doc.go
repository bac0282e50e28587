// Package faultserver is an MCP server that misbehaves like real robot
// back-ends do, for the motion-safety tests: motions that keep going after
// the client gave up, crashes mid-call, observations that are not
// observations, and an optional stop tool. It records every motion in a
// directory shared across processes, so a test can prove that no two were
// ever active at once.
package faultserver
