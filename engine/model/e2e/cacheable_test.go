package e2e_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	_ "image/jpeg" // camera images may be JPEG
	_ "image/png"
	"strings"
	"testing"
)

// A request as a provider's prompt cache sees it: a sequence of segments
// (the tool definitions; then, message by message, its role and call ids,
// and each content part or block), each weighted in tokens: text at four
// bytes a token (the harness's own estimate), an image at width×height/750
// (Anthropic's published count). The cacheable share of a request is the
// weight of its longest run of segments, from the start, equal to the
// previous request's: what a prompt cache keyed on the request's prefix can
// serve. (cache_control markers are left out: they mark where a cache entry
// ends and move with the request.)
type segment struct {
	key    string // what must be equal: the text, or the image's data
	tokens float64
}

func cacheableShare(t *testing.T, w wire, prev, cur []byte) (share, total float64) {
	t.Helper()
	p, c := segments(t, w, prev), segments(t, w, cur)
	same := 0.0
	for i := range c {
		total += c[i].tokens
	}
	for i := range c {
		if i >= len(p) || p[i].key != c[i].key {
			break
		}
		same += c[i].tokens
	}
	return same / total, total
}

func textSegment(s string) segment { return segment{key: "t" + s, tokens: float64(len(s)) / 4} }

func imageSegment(t *testing.T, b64 string) segment {
	t.Helper()
	data, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatalf("image payload: %v", err)
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("image payload: %v", err)
	}
	return segment{key: "i" + b64, tokens: float64(cfg.Width*cfg.Height) / 750}
}

func segments(t *testing.T, w wire, body []byte) []segment {
	t.Helper()
	var b struct {
		Tools    json.RawMessage   `json:"tools"`
		System   json.RawMessage   `json:"system"`
		Messages []json.RawMessage `json:"messages"`
	}
	must(t, json.Unmarshal(body, &b))
	out := []segment{textSegment(string(b.Tools))}
	if len(b.System) > 0 {
		out = append(out, blockSegments(t, b.System)...)
	}
	for _, raw := range b.Messages {
		var m map[string]json.RawMessage
		must(t, json.Unmarshal(raw, &m))
		content := m["content"]
		delete(m, "content")
		head, err := json.Marshal(m)
		must(t, err)
		out = append(out, textSegment(string(head)))
		out = append(out, blockSegments(t, content)...)
	}
	return out
}

// blockSegments splits a message's content: a string is one text segment;
// a list is one segment per part or block (OpenAI's text and image_url
// parts; Anthropic's text, image, tool_use and tool_result blocks, the
// images inside a tool_result counted as images).
func blockSegments(t *testing.T, content json.RawMessage) []segment {
	t.Helper()
	if len(content) == 0 || string(content) == "null" {
		return nil
	}
	var s string
	if json.Unmarshal(content, &s) == nil {
		return []segment{textSegment(s)}
	}
	var parts []map[string]json.RawMessage
	must(t, json.Unmarshal(content, &parts))
	var out []segment
	for _, p := range parts {
		delete(p, "cache_control")
		var typ string
		must(t, json.Unmarshal(p["type"], &typ))
		switch typ {
		case "text":
			var text string
			must(t, json.Unmarshal(p["text"], &text))
			out = append(out, textSegment(text))
		case "image_url": // OpenAI: a data URI
			var u struct {
				URL string `json:"url"`
			}
			must(t, json.Unmarshal(p["image_url"], &u))
			_, data, ok := strings.Cut(u.URL, "base64,")
			if !ok {
				t.Fatalf("image part without a data URI: %.80s", u.URL)
			}
			out = append(out, imageSegment(t, data))
		case "image": // Anthropic
			var src struct {
				Data string `json:"data"`
			}
			must(t, json.Unmarshal(p["source"], &src))
			out = append(out, imageSegment(t, src.Data))
		case "tool_result":
			inner := p["content"]
			delete(p, "content")
			rest, err := json.Marshal(p)
			must(t, err)
			out = append(out, textSegment(string(rest)))
			out = append(out, blockSegments(t, inner)...)
		default:
			rest, err := json.Marshal(p)
			must(t, err)
			out = append(out, textSegment(string(rest)))
		}
	}
	return out
}
