package perception

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"

	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
	"github.com/thea-harness/thea/world"
)

// TypeImage is a raw camera image; the observation sends it as PNG.
const TypeImage = "sensor_msgs/msg/Image"

// maxRawPixels bounds a raw image taken into an observation (4K).
const maxRawPixels = 3840 * 2160

// RawImage encodes a sensor_msgs/msg/Image as PNG. The 8-bit encodings a
// camera driver publishes are read (rgb8, bgr8, rgba8, bgra8, mono8); any
// other (16-bit depth, Bayer, YUV) is refused with its name, since a model
// reads colour images only.
func RawImage(cam string, raw json.RawMessage, emb schema.Embodiment) (world.Image, error) {
	var m struct {
		Height, Width, Step int
		Encoding            string
		Data                wire.Bytes
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return world.Image{}, err
	}
	channels := map[string]int{"rgb8": 3, "bgr8": 3, "rgba8": 4, "bgra8": 4, "mono8": 1}[m.Encoding]
	switch {
	case channels == 0:
		return world.Image{}, fmt.Errorf("encoding %q is not read (rgb8, bgr8, rgba8, bgra8 or mono8; republish it compressed with image_transport)", m.Encoding)
	case !PixelsWithin(m.Width, m.Height, maxRawPixels):
		return world.Image{}, fmt.Errorf("a %dx%d image is outside 1x1 to %d pixels", m.Width, m.Height, maxRawPixels)
	case m.Step < m.Width*channels || !rowsFit(len(m.Data), m.Step, m.Height, m.Width*channels):
		return world.Image{}, fmt.Errorf("%d bytes with step %d do not hold a %dx%d %s image", len(m.Data), m.Step, m.Width, m.Height, m.Encoding)
	}
	var img image.Image
	if channels == 1 {
		g := image.NewGray(image.Rect(0, 0, m.Width, m.Height))
		for y := range m.Height {
			copy(g.Pix[y*g.Stride:y*g.Stride+m.Width], m.Data[y*m.Step:])
		}
		img = g
	} else {
		rgba := image.NewNRGBA(image.Rect(0, 0, m.Width, m.Height))
		bgr := m.Encoding == "bgr8" || m.Encoding == "bgra8"
		for y := range m.Height {
			row := m.Data[y*m.Step:]
			for x := range m.Width {
				px, out := row[x*channels:], rgba.Pix[y*rgba.Stride+x*4:]
				out[0], out[1], out[2], out[3] = px[0], px[1], px[2], 255
				if bgr {
					out[0], out[2] = px[2], px[0]
				}
				if channels == 4 {
					out[3] = px[3]
				}
			}
		}
		img = rgba
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return world.Image{}, fmt.Errorf("encoding PNG: %w", err)
	}
	out := world.Image{Camera: cam, MIME: "image/png", Data: buf.Bytes(), Width: m.Width, Height: m.Height}
	for _, c := range emb.Cameras {
		if c.Name == cam && c.Width > 0 {
			out.Width, out.Height = c.Width, c.Height
		}
	}
	return out, nil
}

// PixelsWithin reports whether a w×h image has 1 to limit pixels, without
// computing a product that could overflow (the sizes come from the robot).
func PixelsWithin(w, h, limit int) bool {
	return w > 0 && h > 0 && w <= limit && h <= limit/w
}

// rowsFit reports whether n bytes hold height rows of row bytes, step
// bytes apart (n >= step*(height-1) + row), without overflow; height and
// row are positive and bounded, step is anything the message says.
func rowsFit(n, step, height, row int) bool {
	if n < row {
		return false
	}
	return height == 1 || step <= (n-row)/(height-1)
}
