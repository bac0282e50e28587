package rosbridge

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge/perception"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// imageMsg is a sensor_msgs/msg/Image as rosbridge sends it.
func imageMsg(enc string, w, h, step int, data []byte) []byte {
	return fmt.Appendf(nil, `{"header": {}, "height": %d, "width": %d, "encoding": %q, "is_bigendian": 0, "step": %d, "data": %q}`,
		h, w, enc, step, base64.StdEncoding.EncodeToString(data))
}

// Every reason a frame is dropped is said, raw or compressed, and the
// other cameras are kept.
func TestCameraFramesDropped(t *testing.T) {
	p := &plan{cfg: Config{Observation: &ObservationDecl{Cameras: map[string]TopicDecl{
		"a_ok":       {Topic: "/ok", Type: perception.TypeImage},
		"b_overflow": {Topic: "/overflow", Type: perception.TypeImage},
		"c_encoding": {Topic: "/depth", Type: perception.TypeImage},
		"d_garbage":  {Topic: "/garbage"},
		"e_format":   {Topic: "/format"},
	}}}}
	msgs := map[string]wire.Message{
		"/ok":       {Data: imageMsg("mono8", 2, 2, 2, []byte{1, 2, 3, 4})},
		"/overflow": {Data: imageMsg("mono8", 2, 2, math.MaxInt/2+1, make([]byte, 4))},
		"/depth":    {Data: imageMsg("16UC1", 2, 2, 4, make([]byte, 8))},
		"/garbage":  {Data: json.RawMessage(`{"format": "jpeg", "data": "bm90IGEganBlZw=="}`)},
		"/format":   {Data: json.RawMessage(`{"format": "tiff", "data": "AAAA"}`)},
	}
	imgs, meta, dropped := p.cameraFrames(msgs, schema.Embodiment{})
	if len(imgs) != 1 || imgs[0].Camera != "a_ok" || len(meta) != 1 || meta[0]["camera"] != "a_ok" {
		t.Fatalf("kept %d images, meta %v", len(imgs), meta)
	}
	want := []string{
		"camera b_overflow from /overflow dropped: 4 bytes with step",
		"camera c_encoding from /depth dropped: encoding \"16UC1\" is not read",
		"camera d_garbage from /garbage dropped: its image/jpeg data has no readable header",
		"camera e_format from /format dropped: format \"tiff\" is neither jpeg nor png",
	}
	if len(dropped) != len(want) {
		t.Fatalf("dropped: %q", dropped)
	}
	for i, w := range want {
		if !strings.HasPrefix(dropped[i], w) {
			t.Fatalf("dropped[%d] = %q, want it to start %q", i, dropped[i], w)
		}
	}
}
