//go:build !(mujoco && cgo)

// Command thea-sim-mujoco is the MuJoCo physics back-end. Built without
// the mujoco tag (or without cgo) it is this stub, so the default build and
// go test ./... need no libmujoco.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "thea-sim-mujoco was built without MuJoCo. Install it (Debian: apt-get install libmujoco-dev libegl-dev libegl-mesa0 libgl1-mesa-dri) and build with: make sim-mujoco (go build -tags mujoco ./cmd/thea-sim-mujoco)")
	os.Exit(2)
}
