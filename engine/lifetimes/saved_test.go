package lifetimes

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/world"
)

// Accumulated context kept by a checkpoint (through JSON) and loaded in
// another store renders the same request, its estimate with it.
func TestKeptAccumulatedLoadsBack(t *testing.T) {
	var s Store
	s.SetResident("system", nil)
	fill(&s, 4)
	s.ConsumeImages(4)
	b, err := json.Marshal(s.Kept())
	if err != nil {
		t.Fatal(err)
	}
	var kept []KeptEntry
	if err := json.Unmarshal(b, &kept); err != nil {
		t.Fatal(err)
	}
	var r Store
	r.SetResident("system", nil)
	if err := r.LoadKept(kept); err != nil {
		t.Fatal(err)
	}
	if got, want := requestJSON(t, &r), requestJSON(t, &s); got != want || r.Counts() != s.Counts() {
		t.Fatalf("loaded request differs:\n%s\nwant\n%s", got, want)
	}
}

// An image not sent yet is not kept: a line says it was lost; a kept entry
// holding an image, or of an unknown kind, is refused.
func TestKeptHoldsNoImages(t *testing.T) {
	var s Store
	img := &world.Image{Camera: "wrist", MIME: "image/png", Data: []byte("png")}
	s.Append(Entry{Kind: KindToolResult, Group: 1, Pending: true,
		Msg: model.Message{Role: model.RoleTool, ToolCallID: "c1", Parts: []model.Part{{Text: "result"}, {Image: img}}}})
	kept := s.Kept()
	if len(kept) != 1 || kept[0].Msg.Parts[1].Image != nil || !strings.Contains(kept[0].Msg.Parts[1].Text, "not kept across a restart") {
		t.Fatalf("kept %+v", kept)
	}
	if s.acc[0].msg.Parts[1].Image == nil {
		t.Fatal("Kept changed the store's own entry")
	}
	var r Store
	bad := []KeptEntry{{Kind: KindToolResult, Msg: model.Message{Parts: []model.Part{{Image: img}}}}}
	if err := r.LoadKept(bad); err == nil || !strings.Contains(err.Error(), "accumulated[0]: holds an image") {
		t.Errorf("an image: %v", err)
	}
	if err := r.LoadKept([]KeptEntry{{Kind: KindCheckpoint + 1}}); err == nil || !strings.Contains(err.Error(), "unknown kind") {
		t.Errorf("an unknown kind: %v", err)
	}
}
