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
// (Anthropic's published count). cache_control markers are left out: they
// mark where a cache entry ends and move with the request.
//
// The Refreshed tail starts at the segment that starts the Scene Graph
// Brief (or at the head of the message the Brief opens, when it opens one):
// everything from there on is the present, built fresh for this request.
type segment struct {
	key    string // what must be equal: the text, or the image's data
	tokens float64
	// breakpoint: the block this segment ends carried cache_control.
	breakpoint bool
}

// request is a decide request's segments and where its Refreshed tail
// starts.
type request struct {
	segs []segment
	tail int
}

func weight(segs []segment) (w float64) {
	for _, s := range segs {
		w += s.tokens
	}
	return w
}

// commonPrefix is the weight of the longest run of segments, from the
// start, that a and b share.
func commonPrefix(a, b []segment) float64 {
	same := 0.0
	for i := range a {
		if i >= len(b) || a[i].key != b[i].key {
			break
		}
		same += a[i].tokens
	}
	return same
}

// cacheFigures compares request cur with the request before it, prev:
// share is how much of prev's part before its tail cur repeats from its
// start (token-weighted); miss is what a prefix cache cannot serve of cur
// (its tokens past the prefix it shares with prev's part before the tail);
// floor is what no cache can serve: cur's tail and the messages cur added
// before it.
func cacheFigures(prev, cur request) (share, miss, floor float64) {
	prevPre := prev.segs[:prev.tail]
	common := commonPrefix(prevPre, cur.segs[:cur.tail])
	total := weight(cur.segs)
	return common / weight(prevPre), total - common, weight(cur.segs[cur.tail:]) + weight(cur.segs[:cur.tail]) - weight(prevPre)
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

const briefHeader = "Scene Graph Brief (turn "

// notesHeader opens the Refreshed tail: the whole Task Notes come first
// (an update in Accumulated context opens "Task Notes update:").
const notesHeader = "Task Notes\nGoal: "

func segments(t *testing.T, body []byte) request {
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
	tail := -1
	for _, raw := range b.Messages {
		var m map[string]json.RawMessage
		must(t, json.Unmarshal(raw, &m))
		content := m["content"]
		delete(m, "content")
		head, err := json.Marshal(m)
		must(t, err)
		out = append(out, textSegment(string(head)))
		blocks := blockSegments(t, content)
		for i, s := range blocks {
			if tail < 0 && strings.HasPrefix(s.key, "t"+notesHeader) {
				tail = len(out) + i
				if i == 0 {
					tail-- // the message is the tail's own
				}
			}
		}
		out = append(out, blocks...)
	}
	if tail < 0 {
		t.Fatalf("a decide request without the Refreshed tail (the whole Task Notes first):\n%.2000s", body)
	}
	return request{segs: out, tail: tail}
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
		_, marked := p["cache_control"]
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
		if marked && len(out) > 0 {
			out[len(out)-1].breakpoint = true
		}
	}
	return out
}
