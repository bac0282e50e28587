// Package toolsets owns the toolset kinds the build ships: builtin (tools in
// process, none physical) and mcp (a subprocess over stdio or a server over
// HTTP), a transport: its back-end constructor, typed config and CUE
// definition. The engine starts every transport under the host's body layer
// (engine/body) and gives every kind's tools their guarantees: argument
// checks, result caps, one panic recovery.
package toolsets
