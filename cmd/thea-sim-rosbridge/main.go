// Command thea-sim-rosbridge is the fake ROS 2 robot behind rosbridge that
// `thea sim rosbridge` runs: a TurtleBot with Nav2, or with -robot arm a
// UR-class tabletop arm, for offline demos, the examples and the tests. It
// prints its ws:// URL as the first line of stdout and serves until
// interrupted. It is test code, so it is a program of its own: the thea
// binary links no fake robot.
package main

import (
	"context"
	"os"

	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

func main() {
	// Main ends on SIGINT and SIGTERM itself.
	os.Exit(rosbridgetest.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
