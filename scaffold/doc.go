// Package scaffold owns `thea init`: the templates of a new robot's folder
// (a commented spec with its embodiment profile and rule tests, an example
// skill, a scripted episode and a stdlib-only Python MCP back-end stub) and
// their rendering for a body kind.
package scaffold
