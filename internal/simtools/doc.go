// Package simtools is the one owner of what the bundled simulators (the 2-D
// household one in embodiments/sim and the MuJoCo one in
// cmd/thea-sim-mujoco) send over MCP alike: the result envelope and its
// IsError flag, argument decoding failures, camera images, run ids and the
// stop tool. Each simulator keeps its own tools; their common wire lives here.
package simtools
