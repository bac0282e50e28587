package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/schema"
)

// observeSteps makes the fixture's observation tool report a pose that
// moves on the turns listed in moves, and one camera image every turn.
func observeSteps(f *fixture, moves map[int]bool) {
	n, x := 0, 1.0
	f.tool("observe").fn = func(context.Context, map[string]any) engine.Envelope {
		n++
		if moves[n] {
			x += 0.5
		}
		return engine.Envelope{Success: true, Value: map[string]any{
			"summary":   "in the hall",
			"clearance": map[string]any{"front": 2.0 - x/10, "back": 1.5},
			"pose":      map[string]any{"x": x, "y": 2.0, "theta_deg": 0.0, "room": "hall"},
			"state":     map[string]any{"lamp": "on", "door": "closed"},
		}, Images: []schema.Image{{Camera: "head", MIME: "image/png", Width: 32, Height: 24, Data: []byte{byte(n)}}}}
	}
}

func textOf(m model.Message) string {
	var b strings.Builder
	for _, p := range m.Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// Each decide request repeats the previous one up to that one's camera
// images (the Refreshed text it stated stays where it was sent) and states
// the observation's changes only; images travel in the last message only.
func TestObservationTrailKeepsTheRequestPrefix(t *testing.T) {
	f := newFixture(t, toolResp("", call("move", `{}`)), toolResp("", call("move", `{}`)),
		toolResp("", call("move", `{}`)), toolResp("done"))
	f.spec.SceneGraph.Enabled = false
	observeSteps(f, map[int]bool{2: true})
	if _, err := f.harness(t).Run(t.Context(), "patrol"); err != nil {
		t.Fatal(err)
	}
	reqs := f.decide.requests()
	if len(reqs) != 4 {
		t.Fatalf("%d decide requests, want 4", len(reqs))
	}
	refreshed := func(r model.Request) string {
		// The last message is the images'; the one before, the text.
		return textOf(r.Messages[len(r.Messages)-2])
	}
	wants := []struct{ has, hasNot string }{
		{"Observation (turn 1, from observe):\nsummary: in the hall\npose: (1, 2) facing 0°, room hall\nclearance: back 1.5, front 1.9 (m)\nstate: door closed, lamp on", ""},
		{"Observation (turn 2), changed:\npose: (1.5, 2) facing 0°, room hall\nclearance: back 1.5, front 1.85 (m)", "state"},
		{"Observation (turn 3): unchanged", "pose"},
		{"Observation (turn 4): unchanged", "pose"},
	}
	for i, r := range reqs {
		text := refreshed(r)
		if !strings.Contains(text, wants[i].has) || wants[i].hasNot != "" && strings.Contains(text, wants[i].hasNot) {
			t.Errorf("request %d states\n%s\nwant it to hold %q (and not %q)", i+1, text, wants[i].has, wants[i].hasNot)
		}
		for j, m := range r.Messages {
			for _, p := range m.Parts {
				if p.Image != nil && j != len(r.Messages)-1 {
					t.Errorf("request %d: message %d of %d carries an image", i+1, j, len(r.Messages))
				}
			}
		}
		last := r.Messages[len(r.Messages)-1]
		if len(last.Parts) != 1 || last.Parts[0].Image == nil || last.Parts[0].Image.Data[0] != byte(i+1) {
			t.Errorf("request %d does not end with turn %d's image", i+1, i+1)
		}
		if i == 0 {
			continue
		}
		prev := reqs[i-1].Messages
		prev = prev[:len(prev)-1] // without its images
		for j := range prev {
			a, b := prev[j], r.Messages[j]
			a.CacheBreakpoint, b.CacheBreakpoint = false, false
			if textOf(a) != textOf(b) || a.Role != b.Role || len(a.Parts) != len(b.Parts) || len(a.ToolCalls) != len(b.ToolCalls) {
				t.Fatalf("request %d differs from request %d at message %d:\n%q\n%q", i+1, i, j, textOf(b), textOf(a))
			}
		}
	}
	// The cache breakpoint sits on the Refreshed text, the last message the
	// next request repeats.
	for i, r := range reqs {
		if n := len(r.Messages); !r.Messages[n-2].CacheBreakpoint || r.Messages[n-3].CacheBreakpoint {
			t.Errorf("request %d: cache breakpoints not on the Refreshed text alone", i+1)
		}
	}
}

// After a compaction the model may no longer read the observation trail or
// the Task Notes in full: the next request states the Refreshed context in
// full, and the latest Task Notes snapshot reads in full.
func TestCompactionRestatesRefreshedContextAndNotes(t *testing.T) {
	const turns = 60
	f := newFixture(t, longTask(turns)...)
	f.spec.Safety.MaxTurns = turns + 1
	f.spec.SceneGraph.Enabled = false
	c := &f.spec.Context.Compaction
	c.Enabled, c.ContextWindow, c.ReserveTokens = true, 3000, 500
	c.KeepRecentTurns, c.KeepRecentTokens, c.ToolResultMaxChars = 2, 600, 600
	c.MaxInputChars, c.MaxSummaryRounds = 8000, 3
	c.CompactionModel = &schema.Model{Provider: "test", Name: "summariser"}
	f.compact = &recorder{inner: &factKeeper{}, name: "summariser"}
	observeSteps(f, map[int]bool{5: true, 17: true, 33: true})
	compactedAt := map[int]bool{}
	for ev := range f.harness(t).RunStream(t.Context(), "patrol") {
		if ev.Kind == engine.EventCompaction && ev.Compaction != nil && ev.Compaction.OK {
			compactedAt[ev.Turn] = true
		}
	}
	if len(compactedAt) < 2 {
		t.Fatalf("compactions at turns %v: the test never compacted twice", compactedAt)
	}
	for i, r := range f.decide.requests() {
		turn := i + 1
		text := textOf(r.Messages[len(r.Messages)-2])
		full := strings.HasPrefix(text, "Observation (turn ") && strings.Contains(text, "from observe):\nsummary:")
		if want := turn == 1 || compactedAt[turn]; full != want {
			t.Errorf("turn %d (compacted %v): Refreshed text in full %v:\n%s", turn, compactedAt[turn], full, text)
		}
		if !compactedAt[turn] {
			continue
		}
		notes := ""
		for _, m := range r.Messages {
			if s := textOf(m); strings.HasPrefix(s, "Task Notes") {
				notes = s
			}
		}
		if !strings.HasPrefix(notes, "Task Notes\nGoal: patrol\nPhase: acting\nTimeline:") {
			t.Errorf("turn %d, after a compaction: the latest Task Notes do not read in full:\n%s", turn, notes)
		}
	}
}
