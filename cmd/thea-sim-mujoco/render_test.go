//go:build mujoco && cgo

package main

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// The cameras still see the scene after a reset: reset rebuilds the model,
// and with it MuJoCo's render context, which must stay bound to the one
// EGL context (a second EGL context on the same display was unbound, and
// the display terminated, when the first was closed: every frame after a
// reset came back blank).
func TestCamerasAfterReset(t *testing.T) {
	c := simClient(t, "--render", "--seed", "7")
	_, first := call(t, c, "observe", nil)
	before := frames(t, first)
	for i := range 2 { // a second reset: the renderer a reset made is closed too
		if env, _ := call(t, c, "reset", map[string]any{"seed": 7}); env["success"] != true {
			t.Fatalf("reset: %v", env)
		}
		_, res := call(t, c, "observe", nil)
		after := frames(t, res)
		for cam, img := range after {
			if n := colours(img); n < 20 {
				t.Errorf("reset %d: the %s camera's frame has %d colours: blank", i+1, cam, n)
			}
			if !bytes.Equal(img.Pix, before[cam].Pix) {
				t.Errorf("reset %d: the %s camera's frame differs from the same seed's first frame", i+1, cam)
			}
		}
	}
}

// frames decodes an observation's camera images by camera name.
func frames(t *testing.T, res *mcp.CallToolResult) map[string]*image.NRGBA {
	t.Helper()
	out := map[string]*image.NRGBA{}
	for _, c := range res.Content[1:] {
		img, ok := c.(mcp.ImageContent)
		if !ok || img.Meta == nil {
			t.Fatalf("content %T, want a camera image", c)
		}
		b, err := base64.StdEncoding.DecodeString(img.Data)
		if err != nil {
			t.Fatal(err)
		}
		pic, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		n, ok := pic.(*image.NRGBA)
		if !ok {
			n = image.NewNRGBA(pic.Bounds())
			for y := pic.Bounds().Min.Y; y < pic.Bounds().Max.Y; y++ {
				for x := pic.Bounds().Min.X; x < pic.Bounds().Max.X; x++ {
					n.Set(x, y, pic.At(x, y))
				}
			}
		}
		out[img.Meta.AdditionalFields["camera"].(string)] = n
	}
	if len(out) != 2 {
		t.Fatalf("%d camera frames, want the overhead and the wrist", len(out))
	}
	return out
}

// colours counts an image's distinct colours.
func colours(img *image.NRGBA) int {
	seen := map[[4]byte]bool{}
	for i := 0; i+3 < len(img.Pix); i += 4 {
		seen[[4]byte(img.Pix[i:i+4])] = true
	}
	return len(seen)
}
