package rosbridge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	_ "image/jpeg" // the header of a CompressedImage's jpeg
	"maps"
	"slices"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge/perception"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
	"github.com/thea-harness/thea/world"
)

// SafetyFrameDropped is a camera frame left out of an observation; the
// observation's truncated field says the same.
const SafetyFrameDropped = "rosbridge_frame_dropped"

// cameraFrames reads each camera's frame. A frame that cannot be shown to
// the model (unreadable, an encoding not read, a header claiming more
// pixels than a result may hold) is left out, and dropped says which and
// why; the other cameras are kept.
func (p *plan) cameraFrames(msgs map[string]wire.Message, emb schema.Embodiment) (imgs []world.Image, meta []map[string]any, dropped []string) {
	o := p.cfg.Observation
	for _, cam := range slices.Sorted(maps.Keys(o.Cameras)) {
		c := o.Cameras[cam]
		img, err := readFrame(cam, c.Type, msgs[c.Topic].Data, emb)
		if err != nil {
			dropped = append(dropped, fmt.Sprintf("camera %s from %s dropped: %v", cam, c.Topic, err))
			continue
		}
		imgs = append(imgs, img)
		meta = append(meta, map[string]any{"camera": img.Camera, "mime": img.MIME, "width": img.Width, "height": img.Height})
	}
	return imgs, meta, dropped
}

// readFrame reads one frame as an image whose header was checked against
// the bound every tool result's images have (engine.MaxImagePixels).
func readFrame(cam, typ string, raw json.RawMessage, emb schema.Embodiment) (world.Image, error) {
	read := compressedImage
	if typ == perception.TypeImage {
		read = perception.RawImage
	}
	img, err := read(cam, raw, emb)
	if err != nil {
		return world.Image{}, err
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(img.Data))
	switch {
	case err != nil:
		return world.Image{}, fmt.Errorf("its %s data has no readable header: %w", img.MIME, err)
	case !perception.PixelsWithin(cfg.Width, cfg.Height, engine.MaxImagePixels):
		return world.Image{}, fmt.Errorf("its header claims %dx%d, outside 1x1 to %d pixels", cfg.Width, cfg.Height, engine.MaxImagePixels)
	}
	return img, nil
}

// droppedEvent says in an event the frames an observation dropped (its
// truncated field, set by assemble).
func (c *conn) droppedEvent(obs runlog.Envelope) {
	if note, ok := obs.Value["truncated"].(string); ok {
		c.b.env.Emit(engine.SafetyEvent{Kind: SafetyFrameDropped, Tool: c.b.plan.cfg.Observation.Tool, Text: note})
	}
}
