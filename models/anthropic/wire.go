package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/model/call"
	"github.com/thea-harness/thea/world"
)

// block is one Messages API content block (text, image, tool_use,
// tool_result); unused fields are omitted.
type block struct {
	Type         string          `json:"type"`
	Text         string          `json:"text,omitempty"`
	Source       *imageSource    `json:"source,omitempty"`
	ID           string          `json:"id,omitempty"`
	Name         string          `json:"name,omitempty"`
	Input        json.RawMessage `json:"input,omitempty"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	Content      []block         `json:"content,omitempty"`
	IsError      bool            `json:"is_error,omitempty"`
	CacheControl *cacheControl   `json:"cache_control,omitempty"`
}

type imageSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

type cacheControl struct {
	Type string `json:"type"`
}

type message struct {
	Role    string  `json:"role"`
	Content []block `json:"content"`
}

// maxBreakpoints is the Messages API's limit on cache_control blocks.
const maxBreakpoints = 4

// rendered is the part of a Messages request this adapter owns.
type rendered struct {
	system   []block
	messages []message
	// inline holds the images; their base64 is written into the encoded
	// body, not JSON-encoded (see call.Inline).
	inline *call.Inline
	// omitTemperature drops the temperature langchaingo always sends.
	omitTemperature bool
}

// render maps the engine's messages onto the Messages API: system messages
// become system blocks; tool results become tool_result blocks (images
// inside them) in a user turn; consecutive turns of one role are merged (all
// tool results of a turn in the one user message that follows the
// assistant); a message marked as a cache breakpoint gets cache_control on
// its last block; a failed tool result is marked is_error; tool names travel
// as the provider sees them (see model.WireToolName). Reasoning is never
// re-sent.
func render(msgs []model.Message, names model.ToolNames) (rendered, error) {
	r := rendered{inline: call.NewInline()}
	type mark struct{ msg, blk int } // msg -1: a system block
	var marks []mark
	for i := range msgs {
		m := &msgs[i]
		var role string
		var blocks []block
		var err error
		switch m.Role {
		case model.RoleSystem:
			if t := m.Text(); t != "" {
				r.system = append(r.system, block{Type: "text", Text: t})
				if m.CacheBreakpoint {
					marks = append(marks, mark{-1, len(r.system) - 1})
				}
			}
			continue
		case model.RoleUser:
			role = "user"
			blocks, err = r.contentBlocks(m.Parts)
		case model.RoleAssistant:
			role = "assistant"
			blocks = assistantBlocks(m, names)
		case model.RoleTool:
			role = "user"
			var content []block
			content, err = r.toolBlocks(m.Parts)
			blocks = []block{{Type: "tool_result", ToolUseID: m.ToolCallID, Content: content, IsError: m.IsError}}
		default:
			return rendered{}, fmt.Errorf("message %d: unknown role %q", i, m.Role)
		}
		if err != nil {
			return rendered{}, fmt.Errorf("message %d: %w", i, err)
		}
		if len(blocks) == 0 {
			continue
		}
		n := len(r.messages) - 1
		if n >= 0 && r.messages[n].Role == role {
			r.messages[n].Content = append(r.messages[n].Content, blocks...)
		} else {
			r.messages = append(r.messages, message{Role: role, Content: blocks})
			n++
		}
		if m.CacheBreakpoint {
			marks = append(marks, mark{n, len(r.messages[n].Content) - 1})
		}
	}
	if len(r.messages) == 0 {
		return rendered{}, fmt.Errorf("the request has no user message")
	}
	// The API takes at most four: keep the first (it covers tools and system)
	// and the latest.
	if len(marks) > maxBreakpoints {
		marks = append(marks[:1], marks[len(marks)-(maxBreakpoints-1):]...)
	}
	for _, k := range marks {
		var b *block
		if k.msg < 0 {
			b = &r.system[k.blk]
		} else {
			b = &r.messages[k.msg].Content[k.blk]
		}
		b.CacheControl = &cacheControl{Type: "ephemeral"}
	}
	return r, nil
}

func (r *rendered) contentBlocks(ps []model.Part) ([]block, error) {
	var out []block
	for _, p := range ps {
		if p.Text != "" {
			// Adjacent text parts join: the API rejects empty text blocks and
			// fewer blocks keep the request small.
			if n := len(out); n > 0 && out[n-1].Type == "text" {
				out[n-1].Text += p.Text
			} else {
				out = append(out, block{Type: "text", Text: p.Text})
			}
		}
		if p.Image != nil {
			src, err := r.image(p.Image)
			if err != nil {
				return nil, err
			}
			out = append(out, block{Type: "image", Source: src})
		}
	}
	return out, nil
}

// toolBlocks are a tool result's content: its first text (the result
// itself), then each text the harness wrote beside it (a refusal of the
// response's other calls, a consumed image's placeholder) as a block of its
// own, then each image after its own label block (model.ImageLabel): the
// result's text stays what the tool returned.
func (r *rendered) toolBlocks(ps []model.Part) ([]block, error) {
	var out []block
	for i, p := range ps {
		if p.Image == nil {
			t := p.Text
			if i > 0 {
				t = strings.TrimSpace(t)
			}
			if t != "" {
				out = append(out, block{Type: "text", Text: t})
			}
			continue
		}
		src, err := r.image(p.Image)
		if err != nil {
			return nil, err
		}
		out = append(out, block{Type: "text", Text: model.ImageLabel(p.Image)}, block{Type: "image", Source: src})
	}
	return out, nil
}

// assistantBlocks sends the whole assistant turn: its text and every tool
// call. A tool_use input must be an object: arguments the model wrote
// malformed go back as {} (the tool result already told the model why).
func assistantBlocks(m *model.Message, names model.ToolNames) []block {
	var out []block
	if t := m.Text(); t != "" {
		out = append(out, block{Type: "text", Text: t})
	}
	for _, c := range m.ToolCalls {
		in := c.Arguments
		if !isObject(in) {
			in = json.RawMessage("{}")
		}
		out = append(out, block{Type: "tool_use", ID: c.ID, Name: names.Wire(c.Name), Input: in})
	}
	return out
}

func isObject(b json.RawMessage) bool {
	b = bytes.TrimSpace(b)
	return len(b) > 0 && b[0] == '{' && json.Valid(b)
}

func (r *rendered) image(img *world.Image) (*imageSource, error) {
	if len(img.Data) == 0 {
		return nil, fmt.Errorf("image from camera %q has no data", img.Camera)
	}
	mime := img.MIME
	if mime == "" {
		mime = http.DetectContentType(img.Data)
	}
	if !strings.HasPrefix(mime, "image/") {
		return nil, fmt.Errorf("image from camera %q has MIME type %q, not an image", img.Camera, mime)
	}
	return &imageSource{Type: "base64", MediaType: mime, Data: r.inline.Add("", img.Data)}, nil
}

// rewriteRequest puts the rendered system and messages into the body
// langchaingo built (which carries a placeholder message). The body is
// re-encoded with sorted keys, so equal requests are equal bytes.
func (r rendered) rewriteRequest(body []byte) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, fmt.Errorf("anthropic request: %w", err)
	}
	msgs, err := json.Marshal(r.messages)
	if err != nil {
		return nil, fmt.Errorf("anthropic request messages: %w", err)
	}
	m["messages"] = msgs
	delete(m, "system")
	if r.omitTemperature {
		delete(m, "temperature")
	}
	if len(r.system) > 0 {
		sys, err := json.Marshal(r.system)
		if err != nil {
			return nil, fmt.Errorf("anthropic request system: %w", err)
		}
		m["system"] = sys
	}
	out, err := json.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("anthropic request: %w", err)
	}
	return r.inline.Substitute(out)
}

// responseBlocks is what the adapter reads of a response before langchaingo
// decodes it: each tool_use input as the model sent it.
type responseBlocks struct {
	// inputs are the raw tool_use inputs by id.
	inputs map[string]string
}

// rewriteResponse keeps the raw tool_use inputs and makes the body safe for
// langchaingo's decoder, which fails on a block type it does not know
// (redacted_thinking, server tools) and on a tool_use input that is not an
// object: such blocks are dropped, such inputs become {}.
func (rb *responseBlocks) rewriteResponse(body []byte) ([]byte, error) {
	var resp map[string]json.RawMessage
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, fmt.Errorf("anthropic response is not JSON: %w", err)
	}
	if len(resp["content"]) == 0 {
		return body, nil // no content: langchaingo reports an empty response
	}
	var content []json.RawMessage
	if err := json.Unmarshal(resp["content"], &content); err != nil {
		return nil, fmt.Errorf("anthropic response content: %w", err)
	}
	changed := false
	kept := content[:0]
	for _, raw := range content {
		var b struct {
			Type  string          `json:"type"`
			ID    string          `json:"id"`
			Input json.RawMessage `json:"input"`
		}
		if err := json.Unmarshal(raw, &b); err != nil {
			return nil, fmt.Errorf("anthropic response block: %w", err)
		}
		switch b.Type {
		case "text", "thinking":
		case "tool_use":
			rb.inputs[b.ID] = inputText(b.Input)
			if !isObject(b.Input) {
				raw = json.RawMessage(fmt.Sprintf(`{"type":"tool_use","id":%q,"name":%s,"input":{}}`, b.ID, nameOf(raw)))
				changed = true
			}
		default:
			changed = true
			continue
		}
		kept = append(kept, raw)
	}
	if !changed {
		return body, nil
	}
	if len(kept) == 0 {
		// langchaingo rejects an empty content list; an empty text block
		// decodes to an empty answer.
		kept = append(kept, json.RawMessage(`{"type":"text","text":""}`))
	}
	c, err := json.Marshal(kept)
	if err != nil {
		return nil, fmt.Errorf("anthropic response content: %w", err)
	}
	resp["content"] = c
	return json.Marshal(resp)
}

// inputText is a tool_use input as argument text: a JSON string input (a
// proxy that passed the model's text through) is its text.
func inputText(in json.RawMessage) string {
	var s string
	if len(in) > 0 && in[0] == '"' && json.Unmarshal(in, &s) == nil {
		return s
	}
	return string(in)
}

func nameOf(raw json.RawMessage) string {
	var b struct {
		Name json.RawMessage `json:"name"`
	}
	if json.Unmarshal(raw, &b) != nil || len(b.Name) == 0 {
		return `""`
	}
	return string(b.Name)
}
