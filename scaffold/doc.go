// Package scaffold owns `thea init`: the templates of a new robot's folder
// (a commented spec with its embodiment profile and rule tests, an example
// skill, a scripted episode and a stdlib-only Python MCP back-end stub) and
// their rendering for a body kind; and `thea init --from-ros`, a spec
// drafted from a live ROS 2 graph with its safety hooks wired and every
// guess marked REVIEW.
package scaffold
