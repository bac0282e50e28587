package model

import (
	"context"
	"encoding/json"

	"github.com/thea-harness/thea/schema"
)

// Role is who a message is from.
type Role string

// Roles of a model request.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Purpose says why a request is made; the script provider keys its answers on
// it and adapters may pick settings by it.
type Purpose string

// Purposes of a model request.
const (
	PurposeDecide      Purpose = "decide"
	PurposeCompact     Purpose = "compact"
	PurposeConsolidate Purpose = "consolidate"
	PurposeEvaluate    Purpose = "evaluate"
)

// Part is one piece of a message: text or an image.
type Part struct {
	Text  string        `json:"text,omitempty"`
	Image *schema.Image `json:"image,omitempty"`
}

// Message is one message of a request.
type Message struct {
	Role  Role   `json:"role"`
	Parts []Part `json:"parts,omitempty"`
	// ToolCalls are the assistant's calls (assistant messages only).
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID answers a call (tool messages only).
	ToolCallID string `json:"tool_call_id,omitempty"`
	Name       string `json:"name,omitempty"`
	// Meta is harness metadata about the message (a compaction checkpoint's
	// kind and source); adapters do not send it.
	Meta map[string]string `json:"meta,omitempty"`
}

// Text joins the message's text parts.
func (m Message) Text() string {
	s := ""
	for _, p := range m.Parts {
		s += p.Text
	}
	return s
}

// ToolCall is one call the model asks for.
type ToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// ToolDef is a tool definition offered to the model (the MCP shape).
type ToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// Request is one model call.
type Request struct {
	Purpose  Purpose   `json:"purpose"`
	Messages []Message `json:"messages"`
	Tools    []ToolDef `json:"tools,omitempty"`
}

// Usage is the token accounting of one response.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// Response is the model's answer: text, tool calls, or both.
type Response struct {
	Text      string     `json:"text,omitempty"`
	Reasoning string     `json:"reasoning,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	Usage     Usage      `json:"usage"`
}

// Model is the small interface every provider adapter implements.
type Model interface {
	Generate(ctx context.Context, req Request) (Response, error)
}
