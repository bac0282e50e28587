// Package toolsets owns the toolset kinds the build ships: builtin (tools in
// process) and mcp (a subprocess over stdio or a server over HTTP), a
// transport under the body layer (package body). The engine gives every
// kind's tools their guarantees: argument checks, result caps, one panic
// recovery.
package toolsets
