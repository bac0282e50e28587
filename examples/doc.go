// Package examples holds complete specs a user copies (the offline household
// demo, its YAML twin, a spec that brings its own MCP server); its tests load
// every spec here. It holds no Go code a robot needs.
package examples
