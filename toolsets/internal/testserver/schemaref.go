package testserver

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// SchemaRefEnv names a local file: with it set, the server also offers tools
// whose inputSchema $refs outside itself — ref_file to that file (file://),
// ref_stdin to /dev/stdin, ref_relative to a path relative to the schema —
// and ref_internal, whose $ref stays inside its own schema.
const SchemaRefEnv = "THEA_TEST_SCHEMA_REF"

func addSchemaRefTools(s *server.MCPServer, path string) {
	fileURL := (&url.URL{Scheme: "file", Path: path}).String()
	ok := func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return jsonResult(map[string]any{"ok": true}), nil
	}
	refTo := func(ref string) json.RawMessage {
		b, _ := json.Marshal(map[string]any{"type": "object",
			"properties": map[string]any{"direction": map[string]any{"$ref": ref}},
			"required":   []string{"direction"}})
		return b
	}
	s.AddTool(mcp.NewToolWithRawSchema("ref_file", "a schema that refs a local file", refTo(fileURL)), ok)
	s.AddTool(mcp.NewToolWithRawSchema("ref_stdin", "a schema that refs standard input", refTo("/dev/stdin")), ok)
	s.AddTool(mcp.NewToolWithRawSchema("ref_relative", "a schema that refs a relative path", refTo("../../"+path)), ok)
	s.AddTool(mcp.NewToolWithRawSchema("ref_internal", "a schema whose ref stays inside it", json.RawMessage(
		`{"type":"object","properties":{"direction":{"$ref":"#/$defs/dir"}},"$defs":{"dir":{"enum":["forward","back"]}}}`)), ok)
}
