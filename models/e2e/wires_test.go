package e2e_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"

	"github.com/thea-harness/thea/engine/model"
)

// wire is what the episode test needs to know of one provider's wire.
type wire struct {
	provider string
	path     string
	// keyHeader must carry keyValue on every request.
	keyHeader, keyValue string
	// answer encodes the episode's next turn as the provider's response to
	// request n (of size bytes).
	answer func(n, size int, resp model.Response) any
	// images matches one image in a message's content.
	images *regexp.Regexp
	// answered fails unless every tool call id of the request is answered.
	answered func(t *testing.T, n int, body []byte)
}

func openaiWire() wire {
	return wire{
		provider: "openai", path: "/v1/chat/completions",
		keyHeader: "Authorization", keyValue: "Bearer " + key,
		images: regexp.MustCompile(`data:image/[a-z]+;base64,[A-Za-z0-9+/=]+`),
		answer: func(n, size int, resp model.Response) any {
			var calls []any
			for i, c := range resp.ToolCalls {
				calls = append(calls, map[string]any{"id": fmt.Sprintf("call_%d_%d", n, i), "type": "function",
					"function": map[string]any{"name": c.Name, "arguments": string(c.Arguments)}})
			}
			msg := map[string]any{"role": "assistant", "content": resp.Text}
			if len(calls) > 0 {
				msg["tool_calls"] = calls
			}
			return map[string]any{"id": fmt.Sprintf("chatcmpl-%d", n), "object": "chat.completion",
				"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": "stop"}},
				"usage":   map[string]any{"prompt_tokens": size / 4, "completion_tokens": 20}}
		},
		answered: func(t *testing.T, n int, body []byte) {
			t.Helper()
			var req struct {
				Messages []struct {
					Role       string `json:"role"`
					ToolCallID string `json:"tool_call_id"`
					ToolCalls  []struct {
						ID string `json:"id"`
					} `json:"tool_calls"`
				} `json:"messages"`
			}
			must(t, json.Unmarshal(body, &req))
			open := map[string]bool{}
			for _, m := range req.Messages {
				if m.Role == "tool" {
					if !open[m.ToolCallID] {
						t.Fatalf("request %d: tool message for unknown call %q", n, m.ToolCallID)
					}
					delete(open, m.ToolCallID)
					continue
				}
				if len(open) > 0 {
					t.Fatalf("request %d: calls %v not answered before a %s message", n, open, m.Role)
				}
				for _, c := range m.ToolCalls {
					open[c.ID] = true
				}
			}
		},
	}
}

func anthropicWire() wire {
	return wire{
		provider: "anthropic", path: "/v1/messages",
		keyHeader: "X-Api-Key", keyValue: key,
		images: regexp.MustCompile(`"media_type":"image/[a-z]+","data":"[A-Za-z0-9+/=]+"`),
		answer: func(n, size int, resp model.Response) any {
			var content []any
			if resp.Text != "" {
				content = append(content, map[string]any{"type": "text", "text": resp.Text})
			}
			for i, c := range resp.ToolCalls {
				content = append(content, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%d_%d", n, i),
					"name": c.Name, "input": c.Arguments})
			}
			return map[string]any{"id": fmt.Sprintf("msg_%d", n), "type": "message", "role": "assistant", "content": content,
				"stop_reason": "end_turn", "usage": map[string]any{"input_tokens": size / 4, "output_tokens": 20}}
		},
		answered: func(t *testing.T, n int, body []byte) {
			t.Helper()
			var req struct {
				Messages []struct {
					Role    string `json:"role"`
					Content []struct {
						Type      string `json:"type"`
						ID        string `json:"id"`
						ToolUseID string `json:"tool_use_id"`
					} `json:"content"`
				} `json:"messages"`
			}
			must(t, json.Unmarshal(body, &req))
			for i, m := range req.Messages {
				if i > 0 && req.Messages[i-1].Role == m.Role {
					t.Fatalf("request %d: two %s turns in a row", n, m.Role)
				}
				if m.Role != "assistant" {
					continue
				}
				want := map[string]bool{}
				for _, b := range m.Content {
					if b.Type == "tool_use" {
						want[b.ID] = true
					}
				}
				if len(want) == 0 {
					continue
				}
				if i+1 >= len(req.Messages) {
					t.Fatalf("request %d ends with unanswered tool calls", n)
				}
				calls := len(want) // the tool_result blocks come first, one per call
				for k, b := range req.Messages[i+1].Content {
					if b.Type == "tool_result" {
						if !want[b.ToolUseID] || k >= calls {
							t.Fatalf("request %d: tool_result %q out of place", n, b.ToolUseID)
						}
						delete(want, b.ToolUseID)
					}
				}
				if len(want) > 0 {
					t.Fatalf("request %d: tool calls %v not answered in the next user turn", n, want)
				}
			}
		},
	}
}
