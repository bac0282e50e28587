package lifetimes

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/world"
)

// CompactTo keeps of the recent turns only what fits in the target beside
// Resident context and the latest Task Notes entry (keep_recent_turns and
// keep_recent_tokens would keep four): the request comes down to about
// the target, the low-water mark.
func TestCompactToTarget(t *testing.T) {
	for _, tc := range []struct {
		name     string
		turns    int // of room in the target
		wantTail int // first group of the retained tail; 11: none
	}{
		{"room for two turns", 2, 9},
		{"room for none", 0, 11},
		{"room for more than keep_recent_turns", 6, 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s Store
			s.SetResident("You control a robot.", nil)
			for _, e := range history(10, 400) {
				s.append(e)
			}
			perTurn := s.acc[0].tokens + s.acc[1].tokens + s.acc[2].tokens
			base := s.residentTokens + s.acc[27].tokens // the latest notes entry
			sum := &summariser{answer: fixed("ten moves")}
			c := Compactor{cfg: budget(), model: sum, modelName: "test/sum"}
			if _, err := s.CompactTo(t.Context(), &c, 0, base+tc.turns*perTurn); err != nil {
				t.Fatal(err)
			}
			got := 11
			for _, e := range s.acc {
				if e.kind == KindToolResult {
					got = e.group
					break
				}
			}
			if got != tc.wantTail {
				t.Fatalf("the retained tail starts at turn %d, want %d", got, tc.wantTail)
			}
		})
	}
}

// LeaveOutImages replaces the images of the next request, the
// observation's and a tool's not sent yet, by placeholders saying why.
func TestLeaveOutImages(t *testing.T) {
	var s Store
	s.SetObservation("Observation", []world.Image{{Camera: "head", Width: 320, Height: 240, Data: []byte{1}}})
	s.Append(Entry{Kind: KindToolResult, Group: 1, Pending: true, Msg: model.Message{Role: model.RoleTool, Name: "get_image",
		Parts: []model.Part{{Text: "frame"}, {Image: &world.Image{Camera: "wrist", Data: []byte{2}}}}}})
	before := s.Total()
	if n := s.LeaveOutImages("over budget"); n != 2 {
		t.Fatalf("%d images left out, want 2", n)
	}
	var text strings.Builder
	for _, m := range s.Request().Messages {
		for _, p := range m.Parts {
			if p.Image != nil {
				t.Fatal("an image is still in the request")
			}
			text.WriteString(p.Text)
		}
	}
	for _, want := range []string{"[image: head camera, 320x240, left out: over budget]", "[image: wrist camera, left out: over budget]"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the request does not say %q:\n%s", want, text.String())
		}
	}
	if after := s.Total(); after >= before-2*imageTokens+100 {
		t.Fatalf("estimate %d → %d: the images' tokens are still counted", before, after)
	}
}
