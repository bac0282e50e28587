// Package mcpserve is the MCP face of a session: any MCP client acts on the
// robot through the session a spec builds (its contracts, hooks, body
// layer, evaluator, Scene Graph, memory and run log), as the acting model.
// thea mcp serves it over stdio; thea serve --mcp mounts it over HTTP.
package mcpserve
