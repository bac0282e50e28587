package testserver

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/png"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// BigResultsEnv, set to anything, adds the tools huge and images.
const BigResultsEnv = "THEA_TEST_BIG_RESULTS"

// addBigResultTools adds tools whose results are too large to keep: huge
// returns `bytes` bytes of text (in a JSON field and as plain text), images
// returns twelve small PNGs and one whose header claims 100000x100000 pixels.
func addBigResultTools(s *server.MCPServer) {
	s.AddTool(mcp.NewTool("huge", mcp.WithDescription("returns a very large result"),
		mcp.WithNumber("bytes", mcp.Required())),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			n := int(r.GetFloat("bytes", 0))
			return &mcp.CallToolResult{Content: []mcp.Content{
				mcp.NewTextContent(`{"summary":"big","blob":"` + strings.Repeat("x", n) + `"}`),
				mcp.NewTextContent(strings.Repeat("y", n)),
			}}, nil
		})
	s.AddTool(mcp.NewTool("images", mcp.WithDescription("returns many images, one with a huge canvas")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			small := pngBytes(2, 2)
			content := []mcp.Content{mcp.NewTextContent(`{"summary":"pictures"}`),
				mcp.NewImageContent(base64.StdEncoding.EncodeToString(claimSize(small, 100000, 100000)), "image/png")}
			for range 12 {
				content = append(content, mcp.NewImageContent(base64.StdEncoding.EncodeToString(small), "image/png"))
			}
			return &mcp.CallToolResult{Content: content}, nil
		})
}

func pngBytes(w, h int) []byte {
	var b bytes.Buffer
	_ = png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h)))
	return b.Bytes()
}

// claimSize rewrites a PNG's IHDR to claim another size (with a valid CRC):
// a decompression bomb's header, without its body.
func claimSize(p []byte, w, h uint32) []byte {
	out := append([]byte(nil), p...)
	// signature (8) | length (4) | "IHDR" (4) | width (4) | height (4) ...
	binary.BigEndian.PutUint32(out[16:], w)
	binary.BigEndian.PutUint32(out[20:], h)
	binary.BigEndian.PutUint32(out[29:], crc32.ChecksumIEEE(out[12:29]))
	return out
}
