package e2e_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"testing"
)

// stablePrefixShare is the share of a request's input (messages, system
// prompt and tool definitions, in bytes as sent) that repeats the previous
// request byte for byte from the start: what a provider's prompt cache can
// serve. Messages are compared whole, in order, up to the first that differs.
func stablePrefixShare(t *testing.T, prev, cur []byte) float64 {
	t.Helper()
	pm, _ := splitBody(t, prev)
	cm, cfixed := splitBody(t, cur)
	total := cfixed
	for _, m := range cm {
		total += len(m)
	}
	stable := 0
	if bytes.Equal(pfixedBytes(prev, t), pfixedBytes(cur, t)) {
		stable = cfixed
	}
	for i := range cm {
		if i >= len(pm) || !bytes.Equal(pm[i], cm[i]) {
			break
		}
		stable += len(cm[i])
	}
	return float64(stable) / float64(total)
}

// splitBody returns a request body's messages (OpenAI's messages; for
// Anthropic the system blocks, then the messages) and the size of what
// else every request carries (tools).
func splitBody(t *testing.T, body []byte) (msgs []json.RawMessage, fixed int) {
	t.Helper()
	var b map[string]json.RawMessage
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatalf("request body: %v", err)
	}
	if sys, ok := b["system"]; ok {
		msgs = append(msgs, sys)
	}
	var ms []json.RawMessage
	if err := json.Unmarshal(b["messages"], &ms); err != nil {
		t.Fatalf("request messages: %v", err)
	}
	return append(msgs, withoutCacheMarks(ms)...), len(b["tools"])
}

func pfixedBytes(body []byte, t *testing.T) []byte {
	var b map[string]json.RawMessage
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatalf("request body: %v", err)
	}
	return b["tools"]
}

// withoutCacheMarks drops cache_control markers, which move with the end of
// Accumulated context and are not part of the cached content, and stands a
// fixed-size mark for each image's base64 payload: a provider counts an image
// by its pixels, not by the length of its encoding.
func withoutCacheMarks(ms []json.RawMessage) []json.RawMessage {
	out := make([]json.RawMessage, len(ms))
	for i, m := range ms {
		m = bytes.ReplaceAll(m, []byte(`,"cache_control":{"type":"ephemeral"}`), nil)
		out[i] = base64Payload.ReplaceAll(m, []byte(`base64,IMAGE`))
	}
	return out
}

var base64Payload = regexp.MustCompile(`base64,[A-Za-z0-9+/=]{64,}|"data":"[A-Za-z0-9+/=]{64,}"`)
