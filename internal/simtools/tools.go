package simtools

import (
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// RunID names the n-th motion or manipulation a simulator ran.
func RunID(n int) string { return "run-" + strconv.Itoa(n) }

// KnownRunID reports whether id is exactly the name RunID gave one of the
// runs 1..last: "run-01" or "run-+1" is not evidence for run-1.
func KnownRunID(id string, last int) bool {
	n, err := strconv.Atoi(strings.TrimPrefix(id, "run-"))
	return err == nil && n >= 1 && n <= last && id == RunID(n)
}

// Image is a camera's PNG as MCP image content, the camera named in its
// metadata so the harness can tell the cameras apart.
func Image(camera string, png []byte) mcp.ImageContent {
	img := mcp.NewImageContent(base64.StdEncoding.EncodeToString(png), "image/png")
	img.Meta = &mcp.Meta{AdditionalFields: map[string]any{"camera": camera}}
	return img
}

// StopTool declares the stop tool, with no arguments, that a spec names as
// a simulator's stop path; desc says why it finds nothing to stop.
func StopTool(desc string) mcp.Tool {
	return mcp.NewTool("stop", mcp.WithDescription(desc), mcp.WithInputSchema[struct{}]())
}

// Stopped is stop's answer in a simulator whose every motion completes
// within its own call: when stop is served nothing is moving.
func Stopped() Envelope {
	return OK(Envelope{"stopped": false, "moving": false})
}
