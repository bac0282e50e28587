package e2e_test

import (
	"encoding/json"
	"fmt"
	"strings"
)

// step is one answer a real model gives, in the shapes real models answer
// in: text beside a call or an empty content, reasoning, a refusal, several
// calls, a prefixed or dotted name, arguments malformed, wrongly typed, or
// a JSON string inside the JSON.
type step struct {
	text, reasoning, refusal string
	calls                    []rawCall
}

// rawCall is a call as the model wrote it: args is the exact argument text.
type rawCall struct{ name, args string }

// view is a request as the model reads it, whatever the wire: its items in
// order (text, images, tool results), the calls the history holds and the
// tool definitions.
type view struct {
	n       int
	purpose string
	task    int
	items   []item
	calls   map[string]rawCall // by call id
	tools   map[string]map[string]any
}

// item is one piece of a request: a text, an image (base64) or a tool
// result's text pieces (each piece as the wire carries it).
type item struct {
	text   string
	image  string
	result string   // the call id the tool result answers
	pieces []string // a tool result's text pieces
}

// encodeOpenAI is a step as OpenAI's chat completions answers it.
func encodeOpenAI(n int, s step, count int) any {
	msg := map[string]any{"role": "assistant", "content": s.text}
	if s.reasoning != "" {
		msg["reasoning_content"] = s.reasoning
	}
	if s.refusal != "" {
		msg["content"], msg["refusal"] = nil, s.refusal
	}
	var calls []any
	for i, c := range s.calls {
		calls = append(calls, map[string]any{"id": fmt.Sprintf("call_%d_%d", n, i), "type": "function",
			"function": map[string]any{"name": c.name, "arguments": c.args}})
	}
	if len(calls) > 0 {
		msg["tool_calls"] = calls
	}
	return map[string]any{"id": fmt.Sprintf("chatcmpl-%d", n), "object": "chat.completion",
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": "stop"}},
		"usage":   map[string]any{"prompt_tokens": count, "completion_tokens": 20}}
}

// encodeAnthropic is a step as the Messages API answers it; arguments that
// are not a JSON object travel as a JSON string (what a model's broken
// tool_use input decodes to).
func encodeAnthropic(n int, s step, count int) any {
	var content []any
	if s.reasoning != "" {
		content = append(content, map[string]any{"type": "thinking", "thinking": s.reasoning, "signature": "c2ln"})
	}
	if s.text != "" {
		content = append(content, map[string]any{"type": "text", "text": s.text})
	}
	if s.refusal != "" {
		content = append(content, map[string]any{"type": "text", "text": s.refusal})
	}
	for i, c := range s.calls {
		var in any = json.RawMessage(c.args)
		if !json.Valid([]byte(c.args)) || !strings.HasPrefix(strings.TrimSpace(c.args), "{") {
			in = c.args
		}
		content = append(content, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d_%d", n, i), "name": c.name, "input": in})
	}
	stop := "end_turn"
	switch {
	case s.refusal != "":
		stop = "refusal"
	case len(s.calls) > 0:
		stop = "tool_use"
	}
	return map[string]any{"id": fmt.Sprintf("msg_%d", n), "type": "message", "role": "assistant", "content": content,
		"stop_reason": stop, "usage": map[string]any{"input_tokens": count, "output_tokens": 20}}
}

// viewOpenAI reads a chat completions request.
func viewOpenAI(body []byte) (view, error) {
	var req struct {
		Tools []struct {
			Function struct {
				Name       string         `json:"name"`
				Parameters map[string]any `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return view{}, fmt.Errorf("request is not JSON: %w", err)
	}
	v := view{calls: map[string]rawCall{}, tools: map[string]map[string]any{}}
	for _, t := range req.Tools {
		v.tools[t.Function.Name] = t.Function.Parameters
	}
	for _, m := range req.Messages {
		for _, c := range m.ToolCalls {
			v.calls[c.ID] = rawCall{c.Function.Name, c.Function.Arguments}
		}
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			if m.Role == "tool" {
				v.items = append(v.items, item{result: m.ToolCallID, pieces: []string{s}})
			} else {
				v.items = append(v.items, item{text: s})
			}
			continue
		}
		var parts []struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			ImageURL struct {
				URL string `json:"url"`
			} `json:"image_url"`
		}
		_ = json.Unmarshal(m.Content, &parts) // null content: no parts
		for _, p := range parts {
			if p.Type == "image_url" {
				v.items = append(v.items, item{image: p.ImageURL.URL[strings.Index(p.ImageURL.URL, ",")+1:]})
			} else {
				v.items = append(v.items, item{text: p.Text})
			}
		}
	}
	return v, nil
}

// anthropicBlock is one content block of a Messages API request.
type anthropicBlock struct {
	Type      string           `json:"type"`
	Text      string           `json:"text"`
	ID        string           `json:"id"`
	Name      string           `json:"name"`
	Input     json.RawMessage  `json:"input"`
	ToolUseID string           `json:"tool_use_id"`
	Content   []anthropicBlock `json:"content"`
	Source    struct {
		Data string `json:"data"`
	} `json:"source"`
}

// viewAnthropic reads a Messages API request.
func viewAnthropic(body []byte) (view, error) {
	var req struct {
		System []anthropicBlock `json:"system"`
		Tools  []struct {
			Name   string         `json:"name"`
			Schema map[string]any `json:"input_schema"`
		} `json:"tools"`
		Messages []struct {
			Role    string           `json:"role"`
			Content []anthropicBlock `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return view{}, fmt.Errorf("request is not JSON: %w", err)
	}
	v := view{calls: map[string]rawCall{}, tools: map[string]map[string]any{}}
	for _, t := range req.Tools {
		v.tools[t.Name] = t.Schema
	}
	add := func(blocks []anthropicBlock) {
		for _, b := range blocks {
			switch b.Type {
			case "text":
				v.items = append(v.items, item{text: b.Text})
			case "image":
				v.items = append(v.items, item{image: b.Source.Data})
			case "tool_use":
				v.calls[b.ID] = rawCall{b.Name, string(b.Input)}
			case "tool_result":
				r := item{result: b.ToolUseID}
				for _, c := range b.Content {
					if c.Type == "text" {
						r.pieces = append(r.pieces, c.Text)
					}
				}
				v.items = append(v.items, r)
				// Its images, each after the text block before it (its label).
				for i, c := range b.Content {
					if c.Type == "image" {
						if i > 0 && b.Content[i-1].Type == "text" {
							v.items = append(v.items, item{text: b.Content[i-1].Text})
						}
						v.items = append(v.items, item{image: c.Source.Data})
					}
				}
			}
		}
	}
	add(req.System)
	for _, m := range req.Messages {
		add(m.Content)
	}
	return v, nil
}
