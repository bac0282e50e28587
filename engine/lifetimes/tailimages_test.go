package lifetimes

import (
	"fmt"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/world"
)

// tailParts is the Refreshed tail of the next request, as text and image
// markers in order.
func tailParts(t *testing.T, s *Store) []string {
	t.Helper()
	req := s.Request()
	tail := req.Messages[len(req.Messages)-1]
	var out []string
	for _, p := range tail.Parts {
		switch {
		case p.Image != nil:
			out = append(out, fmt.Sprintf("<image %s %q>", p.Image.Camera, p.Image.Data))
		default:
			out = append(out, p.Text)
		}
	}
	return out
}

// Each observation image follows its own label, so a model reading two
// cameras' pictures knows which is which (the text's "images:" line names
// them, but not beside each picture).
func TestTailLabelsEachImage(t *testing.T) {
	var s Store
	s.SetResident("system", nil)
	s.SetObservation("Observation (turn 1, from observe):", []world.Image{
		{Camera: "head", MIME: "image/png", Width: 320, Height: 240, Data: []byte("head-frame")},
		{Camera: "wrist", MIME: "image/png", Width: 160, Height: 120, Data: []byte("wrist-frame")},
	})
	got := tailParts(t, &s)
	want := []string{"Observation (turn 1, from observe):",
		"\nCamera \"head\" (320x240):", `<image head "head-frame">`,
		"\nCamera \"wrist\" (160x120):", `<image wrist "wrist-frame">`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("tail parts\n%q\nwant\n%q", got, want)
	}
}

// After get_image, its result carries the camera's latest frame to the next
// request; the observation taken just before that request, the robot not
// having moved, holds the same bytes. The request carries them once: the
// tail names the frame it would repeat. Once the result's image is consumed,
// a later tail sends its frame again.
func TestTailSendsAFrameOnce(t *testing.T) {
	var s Store
	s.SetResident("system", nil)
	frame := []byte("the same head frame")
	img := world.Image{Camera: "head", MIME: "image/png", Width: 320, Height: 240, Data: frame}
	s.Append(Entry{Kind: KindResponse, Group: 1, Msg: model.Message{Role: model.RoleAssistant,
		ToolCalls: []model.ToolCall{{ID: "c1", Name: "get_image", Arguments: []byte(`{"ref":"obj:mug"}`)}}}})
	shown := img
	s.Append(Entry{Kind: KindToolResult, Group: 1, Pending: true, Msg: model.Message{Role: model.RoleTool, ToolCallID: "c1",
		Name: "get_image", Parts: []model.Part{{Text: `{"ref":"obj:mug","success":true}`}, {Image: &shown}}}})
	again := img
	again.Data = append([]byte(nil), frame...)
	s.SetObservation("Observation (turn 2, from observe):", []world.Image{again})

	req := s.Request()
	sent := 0
	for _, m := range req.Messages {
		for _, p := range m.Parts {
			if p.Image != nil && string(p.Image.Data) == string(frame) {
				sent++
			}
		}
	}
	if sent != 1 {
		t.Fatalf("the frame is in the request %d times, want once", sent)
	}
	got := tailParts(t, &s)
	want := []string{"Observation (turn 2, from observe):", "\nCamera \"head\" (320x240): the same frame as the get_image result above."}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("tail parts\n%q\nwant\n%q", got, want)
	}

	s.ConsumeImages(2)
	s.SetObservation("Observation (turn 3, from observe):", []world.Image{img})
	if got := tailParts(t, &s); len(got) != 3 || got[2] != fmt.Sprintf("<image head %q>", frame) {
		t.Fatalf("after the result's image was consumed, the tail is %q, want the frame sent", got)
	}
}
