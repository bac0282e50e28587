package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// What langchaingo's client cannot express is done on the encoded bodies,
// through the call package's rewrites: the request's temperature where the
// model's shape differs from what langchaingo sends, each history tool
// call's extra_content (langchaingo's ToolCall type has no such field and
// drops it both ways), and the images (see call.Inline); on the response,
// each tool call's extra_content is kept before langchaingo decodes it, and
// reasoning under its newer name is copied to the one langchaingo reads.

// rewriteRequest edits the encoded request: the top level only when the
// shape or a history call's extra_content asks for it (images are still
// placeholders then, so the body is small), then the images.
func (rd *renderer) rewriteRequest(body []byte, sh shape) ([]byte, error) {
	if !sh.sendTemperature || sh.forceTemperature || len(rd.extras) > 0 {
		var top map[string]json.RawMessage
		if err := json.Unmarshal(body, &top); err != nil {
			return nil, fmt.Errorf("request: %w", err)
		}
		switch {
		case !sh.sendTemperature:
			delete(top, "temperature")
		case sh.forceTemperature:
			t, err := json.Marshal(sh.temperature)
			if err != nil {
				return nil, fmt.Errorf("request temperature: %w", err)
			}
			top["temperature"] = t
		}
		if len(rd.extras) > 0 {
			msgs, err := withExtras(top["messages"], rd.extras)
			if err != nil {
				return nil, err
			}
			top["messages"] = msgs
		}
		var err error
		if body, err = json.Marshal(top); err != nil {
			return nil, fmt.Errorf("request: %w", err)
		}
	}
	return rd.inline.Substitute(body)
}

// withExtras puts each tool call's extra_content back on the assistant
// message that made it, by call id.
func withExtras(raw json.RawMessage, extras map[string]json.RawMessage) (json.RawMessage, error) {
	var msgs []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &msgs); err != nil {
		return nil, fmt.Errorf("request messages: %w", err)
	}
	placed := 0
	for _, m := range msgs {
		if len(m["tool_calls"]) == 0 {
			continue
		}
		var calls []map[string]json.RawMessage
		if err := json.Unmarshal(m["tool_calls"], &calls); err != nil {
			return nil, fmt.Errorf("request tool calls: %w", err)
		}
		changed := false
		for _, c := range calls {
			var id string
			if json.Unmarshal(c["id"], &id) != nil {
				continue
			}
			if x, ok := extras[id]; ok {
				c["extra_content"], changed = x, true
				placed++
			}
		}
		if changed {
			b, err := json.Marshal(calls)
			if err != nil {
				return nil, fmt.Errorf("request tool calls: %w", err)
			}
			m["tool_calls"] = b
		}
	}
	if placed < len(extras) {
		// A signature that does not go back fails the request at Gemini
		// with a less helpful message; say which.
		return nil, fmt.Errorf("request: %d of %d tool calls' extra_content (Gemini's thought signatures) found no call to go back on", len(extras)-placed, len(extras))
	}
	return json.Marshal(msgs)
}

// responseBody is what the adapter reads of a response before langchaingo
// decodes it.
type responseBody struct {
	// extras are the first choice's tool calls' extra_content, by position
	// (nil where a call has none).
	extras []json.RawMessage
}

// rewrite keeps each tool call's extra_content and copies a message's
// "reasoning" (newer vLLM and Ollama) to "reasoning_content" (DeepSeek,
// older vLLM), the only name langchaingo reads.
func (rb *responseBody) rewrite(body []byte) ([]byte, error) {
	hasExtra := bytes.Contains(body, []byte(`"extra_content"`))
	hasReasoning := bytes.Contains(body, []byte(`"reasoning"`))
	if !hasExtra && !hasReasoning {
		return body, nil
	}
	var resp map[string]json.RawMessage
	if err := json.Unmarshal(body, &resp); err != nil {
		return body, nil // not JSON: langchaingo reports it
	}
	var choices []map[string]json.RawMessage
	if json.Unmarshal(resp["choices"], &choices) != nil {
		return body, nil
	}
	if hasExtra && len(choices) > 0 {
		var msg struct {
			ToolCalls []struct {
				Extra json.RawMessage `json:"extra_content"`
			} `json:"tool_calls"`
		}
		if json.Unmarshal(choices[0]["message"], &msg) == nil {
			for _, c := range msg.ToolCalls {
				var x json.RawMessage
				if len(c.Extra) > 0 && string(c.Extra) != "null" {
					x = c.Extra
				}
				rb.extras = append(rb.extras, x)
			}
		}
	}
	if !hasReasoning {
		return body, nil
	}
	changed := false
	for _, c := range choices {
		var msg map[string]json.RawMessage
		if json.Unmarshal(c["message"], &msg) != nil {
			continue
		}
		r, ok := msg["reasoning"]
		if _, has := msg["reasoning_content"]; !ok || has || len(r) == 0 || r[0] != '"' {
			continue
		}
		msg["reasoning_content"] = r
		b, err := json.Marshal(msg)
		if err != nil {
			return nil, fmt.Errorf("reasoning: %w", err)
		}
		c["message"], changed = b, true
	}
	if !changed {
		return body, nil
	}
	b, err := json.Marshal(choices)
	if err != nil {
		return nil, fmt.Errorf("reasoning: %w", err)
	}
	resp["choices"] = b
	return json.Marshal(resp)
}
