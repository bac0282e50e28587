// Package toolsets owns the tool protocol's kinds: builtin (in process) and
// mcp (a subprocess over stdio or a server over HTTP), the MCP kind a
// transport under the body layer (package body), and the tool guard:
// argument validation against the inputSchema, result caps, panic recovery.
package toolsets
