package engine

import (
	"strings"
	"testing"
)

const briefT3 = `Scene Graph Brief (turn 3, frame map, 3 refs; [source tN] says where each fact comes from):
- robot: in kitchen at (10.05, 2.50) facing 0° [observe t3]; holding nothing
- container:top_drawer: closed [observe t3]
- obj:mug: on place:table [observe/head t3]`

// Each piece is stated in full the first time, then as its changes since
// the model was last sent it.
func TestRefreshedPieceStatesOnlyChanges(t *testing.T) {
	for _, c := range []struct {
		name, shown, now, want string
	}{
		{"first time: in full", "", briefT3, briefT3},
		{"re-confirmed by the same or another source: unchanged", briefT3,
			strings.NewReplacer("t3]", "t4]", "turn 3", "turn 4", "observe/head t3", "observe/head+wrist t4").Replace(briefT3),
			"Scene Graph Brief (turn 4): unchanged"},
		{"a changed line, a new one", briefT3,
			strings.Replace(briefT3, "closed [observe t3]", "open [open_drawer ✓ t3]", 1) + "\n- place:table",
			"Scene Graph Brief (turn 3), changed:\n- container:top_drawer: open [open_drawer ✓ t3]\n- place:table"},
		{"a fact going stale is a change", briefT3,
			strings.Replace(briefT3, "[observe/head t3]", "[observe/head t3, stale]", 1),
			"Scene Graph Brief (turn 3), changed:\n- obj:mug: on place:table [observe/head t3, stale]"},
		{"lines gone", briefT3,
			"Scene Graph Brief (turn 5, frame map, 1 refs):\n- robot: in kitchen at (10.05, 2.50) facing 0° [observe t5]; holding nothing",
			"Scene Graph Brief (turn 5), changed:\nno longer listed: container:top_drawer, obj:mug"},
		{"changes no shorter than the whole: in full", "Observation (turn 1, from observe):\na: 1\nb: 2",
			"Observation (turn 2, from observe):\na: 3\nc: 4", "Observation (turn 2, from observe):\na: 3\nc: 4"},
		{"a continued line is one item", "Observation (turn 1, from observe):\nnote: one\n  two\nlong: " + strings.Repeat("x", 80),
			"Observation (turn 2, from observe):\nnote: one\n  three\nlong: " + strings.Repeat("x", 80),
			"Observation (turn 2), changed:\nnote: one\n  three"},
		{"the summary alone changed: restated", obs("sunny", "1"), obs("cloudy", "1"),
			"Observation (turn 2), changed:\nsummary: cloudy"},
		{"the summary and the fields it sums up changed: the fields", obs("sunny", "1"), obs("cloudy", "2"),
			"Observation (turn 2), changed:\nsummary: (changed; the lines below say how)\npose: 2"},
		{"a one-line note is stated as it is", "Observation (turn 1, from observe):\na: 1",
			"Observation (turn 2): observation unavailable: timeout", "Observation (turn 2): observation unavailable: timeout"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var sh shownPiece
			if c.shown != "" {
				p := parsePiece(c.shown, nil)
				p.shown(&sh)
			}
			p := parsePiece(c.now, nil)
			var b strings.Builder
			p.render(&b, &sh)
			if got := b.String(); got != c.want {
				t.Fatalf("rendered\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}

func obs(summary, pose string) string {
	return "Observation (turn 2, from observe):\nsummary: " + summary + "\npose: " + pose + "\nclearance: front " + strings.Repeat("9", 60)
}

func TestSameFact(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"plain", "plain", true},
		{"plain", "plan", false},
		{"- robot: at (1, 2) [observe t3]", "- robot: at (1, 2) [observe/head+wrist t4]", true},
		{"- robot: at (1, 2) [observe t3]", "- robot: at (1, 3) [observe t3]", false},
		{"near x [navigate_to ✓ t12]; holding y [observe t3]", "near x [observe t13]; holding y [observe t13]", true},
		{"holding y [observe t3]", "holding y [observe t3, stale]", false},
		{"holding y [observe t3]; z", "holding y [observe t3]; w", false},
		{"unclosed [observe t3", "unclosed [observe t4", false},
		{"a [x]", "a [x] b", false},
	} {
		if got := sameFact(c.a, c.b); got != c.same {
			t.Errorf("sameFact(%q, %q) = %v, want %v", c.a, c.b, got, c.same)
		}
	}
}

func TestShortHeader(t *testing.T) {
	for in, want := range map[string]string{
		"Scene Graph Brief (turn 4, frame map, 5 refs; [source tN] says where):": "Scene Graph Brief (turn 4)",
		"Observation (turn 4, from observe):":                                    "Observation (turn 4)",
		"Status:":                                                                "Status",
	} {
		var b strings.Builder
		if writeShortHeader(&b, in); b.String() != want {
			t.Errorf("writeShortHeader(%q) = %q, want %q", in, b.String(), want)
		}
	}
}

// Parsing a piece reuses the piece it replaces, and rendering its changes
// allocates only the text it writes.
func TestRefreshedPieceAllocations(t *testing.T) {
	next := strings.NewReplacer("t3]", "t4]", "closed", "open").Replace(briefT3)
	var sh shownPiece
	p := parsePiece(briefT3, nil)
	p.shown(&sh)
	var b strings.Builder
	b.Grow(4 * len(next))
	allocs := testing.AllocsPerRun(100, func() {
		p = parsePiece(next, p.items)
		b.Reset()
		b.Grow(4 * len(next))
		p.render(&b, &sh)
	})
	if allocs > 1 {
		t.Fatalf("%.1f allocations a parse and render, want at most 1 (the text)", allocs)
	}
	if !strings.Contains(b.String(), "container:top_drawer: open") {
		t.Fatalf("rendered %q", b.String())
	}
}

// The notes are snapshotted in full once, then as their changes; the
// complete notes can be rendered at any snapshot.
func TestTaskNotesSnapshots(t *testing.T) {
	var n TaskNotes
	n.reset("Put the mug away")
	if got := n.snapshot(); got != "Task Notes\nGoal: Put the mug away\nPhase: starting\nTimeline: (empty)" {
		t.Fatalf("first snapshot:\n%s", got)
	}
	n.add(1, "navigate_to: ok")
	n.setPhase("acting")
	if got := n.snapshot(); got != "Task Notes update:\nPhase: acting\n- turn 1: navigate_to: ok" {
		t.Fatalf("second snapshot:\n%s", got)
	}
	n.setGoal("Put the cup away")
	n.add(2, "pick_up: ok")
	if got := n.snapshot(); got != "Task Notes update:\nGoal: Put the cup away\n- turn 2: pick_up: ok" {
		t.Fatalf("third snapshot:\n%s", got)
	}
	if got := n.render(); !strings.Contains(got, "Goal: Put the cup away\nPhase: acting\nTimeline:\n- turn 1: navigate_to: ok\n- turn 2: pick_up: ok") {
		t.Fatalf("complete notes:\n%s", got)
	}
	n.reset("Next task")
	if got := n.snapshot(); !strings.HasPrefix(got, "Task Notes\nGoal: Next task") {
		t.Fatalf("a new task's first snapshot is not complete:\n%s", got)
	}
}
