// Package toolsets owns the tool protocol: the flat registry, argument
// validation against the inputSchema, the envelope, and the toolset kinds:
// builtin (in process) and mcp (a subprocess over stdio or a server over HTTP).
package toolsets
