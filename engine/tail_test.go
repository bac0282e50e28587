package engine_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// observeSteps makes the fixture's observation tool report a pose that
// moves on the turns listed in moves, and one camera image every turn.
func observeSteps(f *fixture, moves map[int]bool) {
	n, x := 0, 1.0
	f.tool("observe").fn = func(context.Context, map[string]any) runlog.Envelope {
		n++
		if moves[n] {
			x += 0.5
		}
		return runlog.Envelope{Success: true, Value: map[string]any{
			"summary":   fmt.Sprintf("in the hall, observation %d", n),
			"clearance": map[string]any{"front": 2.0 - x/10, "back": 1.5},
			"pose":      map[string]any{"x": x, "y": 2.0, "theta_deg": 0.0, "room": "hall"},
			"state":     map[string]any{"lamp": "on", "door": "closed"},
		}, Images: []world.Image{{Camera: "head", MIME: "image/png", Width: 32, Height: 24, Data: []byte{byte(n)}}}}
	}
}

func textOf(m model.Message) string {
	var b strings.Builder
	for _, p := range m.Parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// Each decide request ends with the Refreshed tail: one user message, the
// whole current observation (every field, its turn's camera image) and
// nothing of an earlier one anywhere in the request. Everything before the
// tail repeats the previous request up to its tail; the cache breakpoints
// sit on the Resident message and on the last message before the tail.
func TestRequestEndsWithTheWholePresent(t *testing.T) {
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
	wants := []string{
		"Observation (turn 1, from observe):\nsummary: in the hall, observation 1\npose: (1.00, 2.00) facing 0°, room hall\nclearance: back 1.50, front 1.90 (m)\nstate: door closed, lamp on",
		"Observation (turn 2, from observe):\nsummary: in the hall, observation 2\npose: (1.50, 2.00) facing 0°, room hall\nclearance: back 1.50, front 1.85 (m)\nstate: door closed, lamp on",
		"Observation (turn 3, from observe):\nsummary: in the hall, observation 3\npose: (1.50, 2.00) facing 0°, room hall\nclearance: back 1.50, front 1.85 (m)\nstate: door closed, lamp on",
		"Observation (turn 4, from observe):\nsummary: in the hall, observation 4\npose: (1.50, 2.00) facing 0°, room hall\nclearance: back 1.50, front 1.85 (m)\nstate: door closed, lamp on",
	}
	for i, r := range reqs {
		tail := r.Messages[len(r.Messages)-1]
		if s := textOf(tail); tail.Role != model.RoleUser || !strings.HasPrefix(s, "Task Notes\nGoal: patrol\n") || !strings.Contains(s, "\n\n"+wants[i]) {
			t.Errorf("request %d ends with\n%s\nwant the whole Task Notes, then the whole observation\n%s", i+1, textOf(tail), wants[i])
		}
		// The text, the image's label, the image.
		if n := len(tail.Parts); n != 3 || !strings.HasPrefix(tail.Parts[1].Text, "\nCamera ") ||
			tail.Parts[2].Image == nil || tail.Parts[2].Image.Data[0] != byte(i+1) {
			t.Errorf("request %d: the tail does not end with turn %d's image after its label", i+1, i+1)
		}
		for j, m := range r.Messages {
			for _, p := range m.Parts {
				if p.Image != nil && j != len(r.Messages)-1 {
					t.Errorf("request %d: message %d of %d carries an image", i+1, j, len(r.Messages))
				}
			}
			for k := 1; k <= i; k++ {
				if s := textOf(m); strings.Contains(s, fmt.Sprintf("Observation (turn %d", k)) || strings.Contains(s, fmt.Sprintf("observation %d\n", k)) {
					t.Errorf("request %d, message %d: holds the observation of turn %d:\n%s", i+1, j, k, s)
				}
			}
		}
		n := len(r.Messages)
		for j, m := range r.Messages {
			if want := j == 0 || j == n-2; m.CacheBreakpoint != want {
				t.Errorf("request %d: message %d of %d has a cache breakpoint %v, want %v", i+1, j, n, m.CacheBreakpoint, want)
			}
		}
		if i == 0 {
			continue
		}
		prev := reqs[i-1].Messages
		prev = prev[:len(prev)-1] // without its tail
		for j := range prev {
			a, b := prev[j], r.Messages[j]
			a.CacheBreakpoint, b.CacheBreakpoint = false, false
			if textOf(a) != textOf(b) || a.Role != b.Role || len(a.Parts) != len(b.Parts) || len(a.ToolCalls) != len(b.ToolCalls) {
				t.Fatalf("request %d differs from request %d at message %d:\n%q\n%q", i+1, i, j, textOf(b), textOf(a))
			}
		}
	}
}

// Across compactions every request ends with the whole Task Notes (they
// are Refreshed, never summarised), then the whole observation.
func TestCompactionKeepsTheLatestNotesSnapshot(t *testing.T) {
	const turns = 60
	f := newFixture(t, longTask(turns)...)
	f.spec.Safety.MaxTurns = turns + 1
	f.spec.SceneGraph.Enabled = false
	c := &f.spec.Context.Compaction
	c.Enabled, c.ContextWindow, c.ReserveTokens = true, 1500, 500
	c.KeepRecentTurns, c.KeepRecentTokens, c.ToolResultMaxChars = 2, 600, 600
	c.MaxInputChars, c.MaxSummaryRounds = 8000, 3
	c.CompactionModel = &schema.Model{Provider: "test", Config: testModel{Name: "summariser"}}
	f.compact = &recorder{inner: &factKeeper{}, name: "summariser"}
	observeSteps(f, map[int]bool{5: true, 17: true, 33: true})
	compactedAt := map[int]bool{}
	for ev := range f.harness(t).RunStream(t.Context(), "patrol") {
		if ev.Kind == runlog.EventCompaction && ev.Compaction != nil && ev.Compaction.OK {
			compactedAt[ev.Turn] = true
		}
	}
	if len(compactedAt) < 2 {
		t.Fatalf("compactions at turns %v: the test never compacted twice", compactedAt)
	}
	for i, r := range f.decide.requests() {
		turn := i + 1
		notes, obs, _ := strings.Cut(textOf(r.Messages[len(r.Messages)-1]), "\n\n")
		if want := fmt.Sprintf("Observation (turn %d, from observe):\nsummary: in the hall, observation %d\npose:", turn, turn); !strings.HasPrefix(obs, want) {
			t.Errorf("turn %d (compacted %v): the tail does not end with the whole observation:\n%s", turn, compactedAt[turn], obs)
		}
		if turn == 1 {
			continue
		}
		// The notes changed at the end of the turn before: its event is
		// the snapshot's last line.
		want := fmt.Sprintf("- turn %d: move: ok", turn-1)
		if !strings.HasPrefix(notes, "Task Notes\nGoal: patrol\nPhase: acting\nTimeline:") || !strings.HasSuffix(notes, want) {
			t.Errorf("turn %d (compacted %v): the tail does not start with the whole Task Notes, ending with %q:\n%s", turn, compactedAt[turn], want, notes)
		}
	}
}
