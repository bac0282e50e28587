package model

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/thea-harness/thea/world"
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
	Text  string       `json:"text,omitempty"`
	Image *world.Image `json:"image,omitempty"`
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
	// CacheBreakpoint: a provider that supports explicit prompt-cache
	// breakpoints (Anthropic cache_control) marks the end of this message as
	// one; others ignore it.
	CacheBreakpoint bool `json:"cache_breakpoint,omitempty"`
	// IsError marks a tool message whose envelope is a failure. Anthropic's
	// wire carries it as the tool_result's is_error; OpenAI-format wires have
	// no such field, and the envelope's "success":false says it in the text.
	IsError bool `json:"is_error,omitempty"`
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
	ID   string `json:"id"`
	Name string `json:"name"`
	// Arguments is the model's argument object. Provider adapters hand on
	// arguments that are not valid JSON as a JSON string holding the raw text,
	// so the engine answers them with a failure envelope and the text still
	// encodes (RawArguments gives the text back).
	Arguments json.RawMessage `json:"arguments"`
	// WireName is the name the provider saw, when it differs from Name: a
	// tool name outside what the APIs accept travels as its alias (see
	// WireToolName). Adapters set it on responses; the run log records it.
	WireName string `json:"wire_name,omitempty"`
	// Extra is provider data that must go back with this call, verbatim,
	// whenever the history is sent again: Gemini's extra_content, which holds
	// the thought signature Gemini 3 requires on every function call it made.
	Extra json.RawMessage `json:"extra,omitempty"`
}

// RawArguments is the argument text as the model wrote it: the string a
// malformed argument was wrapped in, otherwise the JSON itself.
func (c ToolCall) RawArguments() string {
	if len(c.Arguments) > 0 && c.Arguments[0] == '"' {
		var s string
		if json.Unmarshal(c.Arguments, &s) == nil {
			return s
		}
	}
	return string(c.Arguments)
}

// ArgumentsFromText turns a provider's argument text into Arguments: valid
// JSON as it is, anything else (a truncated or malformed object) as a JSON
// string holding the text. Empty text is an empty object.
func ArgumentsFromText(s string) json.RawMessage {
	if strings.TrimSpace(s) == "" {
		return json.RawMessage("{}")
	}
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(s) // a string always encodes
	return b
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

// Usage is the token accounting of one response. InputTokens counts the
// whole prompt as the provider bills it, cached tokens included;
// CachedInputTokens is the part of it read from the provider's prompt cache.
type Usage struct {
	InputTokens       int `json:"input_tokens"`
	CachedInputTokens int `json:"cached_input_tokens"`
	OutputTokens      int `json:"output_tokens"`
}

// Response is the model's answer: text, tool calls, or both.
type Response struct {
	Text      string     `json:"text,omitempty"`
	Reasoning string     `json:"reasoning,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	Usage     Usage      `json:"usage"`
}

// Model is the small interface every provider adapter implements.
//
// A request is the caller's: its slices (the messages above all, which the
// session reuses for its next request instead of copying them each turn)
// are valid until Generate returns. A model that keeps any part of a
// request past that copies it; none changes it.
type Model interface {
	Generate(ctx context.Context, req Request) (Response, error)
}
