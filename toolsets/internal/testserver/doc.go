// Package testserver is a small MCP server for the toolsets tests: echo, slow,
// crashing and failing tools, an observation with an image, and tools that
// report the process's environment and start a grandchild process.
package testserver
