// Package simtoolstest drives a bundled simulator the way the harness
// does, as a real MCP subprocess, for the simulators' own tests.
package simtoolstest

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// Start runs exe with env (KEY=value pairs added to the test's) and args
// as an MCP server over stdio, initialises a session as clientName and
// closes it when the test ends.
func Start(t *testing.T, clientName, exe string, env []string, args ...string) *client.Client {
	t.Helper()
	c, err := client.NewStdioMCPClient(exe, env, args...)
	if err != nil {
		t.Fatalf("start the simulator: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: clientName, Version: "0"}
	if _, err := c.Initialize(t.Context(), init); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return c
}

// Call invokes a tool and decodes its JSON text envelope; it fails the
// test unless the result opens with a JSON object whose success agrees
// with the result's IsError.
func Call(t *testing.T, c *client.Client, tool string, args map[string]any) (map[string]any, *mcp.CallToolResult) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatalf("%s(%v): %v", tool, args, err)
	}
	if len(res.Content) == 0 {
		t.Fatalf("%s(%v): no content", tool, args)
	}
	text, isText := res.Content[0].(mcp.TextContent)
	if !isText {
		t.Fatalf("%s(%v): first content is %T, want text", tool, args, res.Content[0])
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(text.Text), &out); err != nil {
		t.Fatalf("%s(%v): result is not a JSON object: %v: %s", tool, args, err, text.Text)
	}
	if s, _ := out["success"].(bool); s == res.IsError {
		t.Fatalf("%s(%v): success %v but isError %v", tool, args, out["success"], res.IsError)
	}
	return out, res
}
