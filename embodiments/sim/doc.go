// Package sim is the bundled household simulator: a 2D world read from YAML,
// a mobile manipulator with seeded outcomes, rendered camera images, served as a
// plain MCP server over stdio. LoadWorld reads a world, NewServer simulates it
// behind MCP tools, Serve runs that server for `thea sim serve` (README.md).
package sim
