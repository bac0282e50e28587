package perception

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image/png"
	"math"
	"strings"
	"testing"

	"github.com/thea-harness/thea/schema"
)

func imageMsg(enc string, w, h, step int, data []byte) []byte {
	return fmt.Appendf(nil, `{"header": {}, "height": %d, "width": %d, "encoding": %q, "is_bigendian": 0, "step": %d, "data": %q}`,
		h, w, enc, step, base64.StdEncoding.EncodeToString(data))
}

// A raw image becomes a PNG with the same pixels: bgr8 swapped, a row's
// padding (step) skipped, mono8 grey.
func TestRawImage(t *testing.T) {
	// 2x2, step 8 (2 bytes of padding per row).
	rgb := []byte{255, 0, 0, 0, 255, 0, 9, 9, 0, 0, 255, 10, 20, 30, 9, 9}
	for _, c := range []struct {
		enc  string
		data []byte
		step int
		want [4][3]uint8
	}{
		{"rgb8", rgb, 8, [4][3]uint8{{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {10, 20, 30}}},
		{"bgr8", rgb, 8, [4][3]uint8{{0, 0, 255}, {0, 255, 0}, {255, 0, 0}, {30, 20, 10}}},
		{"mono8", []byte{0, 50, 100, 200}, 2, [4][3]uint8{{0, 0, 0}, {50, 50, 50}, {100, 100, 100}, {200, 200, 200}}},
	} {
		img, err := RawImage("front", imageMsg(c.enc, 2, 2, c.step, c.data), schema.Embodiment{})
		if err != nil {
			t.Fatalf("%s: %v", c.enc, err)
		}
		if img.MIME != "image/png" || img.Width != 2 || img.Height != 2 {
			t.Fatalf("%s: %+v", c.enc, img)
		}
		dec, err := png.Decode(bytes.NewReader(img.Data))
		if err != nil {
			t.Fatalf("%s: %v", c.enc, err)
		}
		for i, want := range c.want {
			r, g, b, _ := dec.At(i%2, i/2).RGBA()
			if got := [3]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8)}; got != want {
				t.Fatalf("%s: pixel %d = %v, want %v", c.enc, i, got, want)
			}
		}
	}
}

// What cannot be read is refused with the reason.
func TestRawImageRefused(t *testing.T) {
	for _, c := range []struct {
		msg  []byte
		want string
	}{
		{imageMsg("16UC1", 2, 2, 4, make([]byte, 8)), `encoding "16UC1" is not read`},
		{imageMsg("rgb8", 2, 2, 6, make([]byte, 11)), "do not hold a 2x2 rgb8 image"},
		{imageMsg("rgb8", 2, 2, 5, make([]byte, 12)), "step 5"},
		{imageMsg("rgb8", 0, 2, 6, nil), "outside"},
		// Sizes whose products overflow: a clear refusal, never a panic.
		{imageMsg("mono8", 2, 2, math.MaxInt/2+1, make([]byte, 4)), "step 4611686018427387904"},
		{imageMsg("mono8", 1<<32, 1<<32, 1<<32, make([]byte, 4)), "outside 1x1"},
		{imageMsg("mono8", 3, 3074457345618258603, 3, make([]byte, 9)), "outside 1x1"},
		{imageMsg("mono8", 1, 3, math.MaxInt, make([]byte, 4)), "do not hold"},
	} {
		if _, err := RawImage("front", c.msg, schema.Embodiment{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("want %q, got %v", c.want, err)
		}
	}
}

// FuzzRawImage: whatever a robot sends as a raw Image, reading it never
// panics, and an image it accepts is a PNG of the size it says.
func FuzzRawImage(f *testing.F) {
	f.Add(imageMsg("rgb8", 2, 2, 8, make([]byte, 16)))
	f.Add(imageMsg("mono8", 2, 2, math.MaxInt/2+1, make([]byte, 4)))
	f.Add(imageMsg("bgra8", 1<<32, 1<<32, 1<<34, make([]byte, 4)))
	f.Add(imageMsg("mono8", 1, 3, -1, make([]byte, 4)))
	f.Fuzz(func(t *testing.T, msg []byte) {
		img, err := RawImage("front", msg, schema.Embodiment{})
		if err != nil {
			return
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(img.Data))
		if err != nil || cfg.Width != img.Width || cfg.Height != img.Height {
			t.Fatalf("accepted image: %+v, %v", cfg, err)
		}
	})
}
