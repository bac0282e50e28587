package toolsets

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// Content the harness cannot show (an embedded resource, audio, a link) is
// never dropped silently: a text resource is included, the rest is named.
func TestToEnvelopeOtherContent(t *testing.T) {
	res := &mcp.CallToolResult{Content: []mcp.Content{
		mcp.NewEmbeddedResource(mcp.TextResourceContents{URI: "file:///notes.txt", MIMEType: "text/plain", Text: "shelf is empty"}),
		mcp.NewAudioContent("AAAA", "audio/wav"),
		mcp.NewResourceLink("file:///map.pgm", "map", "the occupancy map", "image/x-portable-graymap"),
	}}
	env := toEnvelope("look", res)
	if !env.Success {
		t.Fatalf("failure: %s", env.Reason)
	}
	text, _ := env.Value["text"].(string)
	for _, want := range []string{"shelf is empty", "audio/wav", "file:///map.pgm"} {
		if !strings.Contains(text, want) {
			t.Errorf("text %q lacks %q", text, want)
		}
	}
}

func TestToEnvelopeOddResults(t *testing.T) {
	for _, tc := range []struct {
		name    string
		res     *mcp.CallToolResult
		success bool
		want    string // in the reason on failure, in the text on success
	}{
		{"no content", &mcp.CallToolResult{}, true, ""},
		{"error without content", &mcp.CallToolResult{IsError: true}, false, "without a reason"},
		{"json array", &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(`[1,2]`)}}, true, "[1,2]"},
		{"not json", &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(`{oops`)}}, true, "{oops"},
		{"bad base64", &mcp.CallToolResult{Content: []mcp.Content{mcp.NewImageContent("%%%", "image/png")}}, false, "not valid base64"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := toEnvelope("look", tc.res)
			if env.Success != tc.success {
				t.Fatalf("success %v, want %v (%s)", env.Success, tc.success, env.Reason)
			}
			got, _ := env.Value["text"].(string)
			if !tc.success {
				got = env.Reason
			}
			if !strings.Contains(got, tc.want) {
				t.Fatalf("got %q, want it to contain %q", got, tc.want)
			}
		})
	}
}
