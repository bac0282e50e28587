// Package examples holds complete specs a user copies (the offline household
// demo and its YAML twin, a spec that brings its own MCP server, a minimal
// Python back-end, a tabletop arm, a TurtleBot and a UR-class arm over
// rosbridge, an eval job for Kubernetes, a job array for Slurm) and embed/, a
// Go program that runs a robot through Thea's API; its tests load every spec
// here. It holds no Go code a robot needs.
package examples
