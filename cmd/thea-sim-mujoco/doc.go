//go:build mujoco && cgo

// Command thea-sim-mujoco is the MuJoCo physics back-end: a tabletop arm
// (mug, plate, bin, a light curtain) whose tools are scripted controllers
// over real contact, served over MCP stdio with the documented observation
// contract. Its own program, so the thea binary stays free of cgo.
package main
