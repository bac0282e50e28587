package simtools

import (
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
)

// Envelope is a tool's JSON result: {"success": true, ...} or
// {"success": false, "reason": ...}.
type Envelope map[string]any

// OK marks fields as a success (a nil map is an empty success).
func OK(fields Envelope) Envelope {
	if fields == nil {
		fields = Envelope{}
	}
	fields["success"] = true
	return fields
}

// Fail is a failure whose reason is format applied to a.
func Fail(format string, a ...any) Envelope {
	return Envelope{"success": false, "reason": fmt.Sprintf(format, a...)}
}

// Result is e as the text of a tool result, IsError set unless e is a
// success, so a client that reads only the flag still sees a failure.
func Result(e Envelope) (*mcp.CallToolResult, error) {
	b, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	res := mcp.NewToolResultText(string(b))
	res.IsError = e["success"] != true
	return res, nil
}

// Bind decodes a call's arguments into A; when they do not decode it
// returns the failure the call answers with, pointing at the input schema.
func Bind[A any](req mcp.CallToolRequest) (A, Envelope) {
	var a A
	if err := req.BindArguments(&a); err != nil {
		return a, Fail("invalid arguments: %v; see the tool's input schema", err)
	}
	return a, nil
}
