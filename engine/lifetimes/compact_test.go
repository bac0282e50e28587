package lifetimes

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// summariser is a fake compaction model: it records each request and
// answers with a function of it.
type summariser struct {
	reqs   []model.Request
	answer func(n int, prev, chunk string) (model.Response, error)
}

func (s *summariser) Generate(_ context.Context, req model.Request) (model.Response, error) {
	s.reqs = append(s.reqs, req)
	in := req.Messages[len(req.Messages)-1].Text()
	prev, chunk, _ := strings.Cut(strings.TrimPrefix(in, "Previous checkpoint:\n"), "\n\nNew messages:\n")
	return s.answer(len(s.reqs), prev, chunk)
}

func fixed(text string) func(int, string, string) (model.Response, error) {
	return func(int, string, string) (model.Response, error) { return model.Response{Text: text}, nil }
}

// history builds n complete turns (groups 1..n): a notes snapshot, an
// assistant call with reasoning and a tool result of resultChars.
func history(n, resultChars int) []entry {
	var acc []entry
	add := func(e entry) {
		e.tokens = estimateMessage(&e.msg)
		acc = append(acc, e)
	}
	for g := 1; g <= n; g++ {
		add(entry{kind: KindNotes, group: g, msg: userText(fmt.Sprintf("Task Notes v%d", g))})
		add(entry{kind: KindResponse, group: g, reasoning: "R" + strings.Repeat("r", 50) + "END", msg: model.Message{
			Role: model.RoleAssistant, Parts: []model.Part{{Text: fmt.Sprintf("step %d", g)}},
			ToolCalls: []model.ToolCall{{ID: fmt.Sprintf("c%d", g), Name: "move", Arguments: []byte(`{}`)}},
		}})
		add(entry{kind: KindToolResult, group: g, msg: model.Message{Role: model.RoleTool, ToolCallID: fmt.Sprintf("c%d", g), Name: "move",
			Parts: []model.Part{{Text: fmt.Sprintf("BEGIN%d", g) + strings.Repeat("x", resultChars) + fmt.Sprintf("FINISH%d", g)}}}})
	}
	return acc
}

func budget() schema.Compaction {
	return schema.Compaction{Enabled: true, ContextWindow: 10000, ReserveTokens: 2000, KeepRecentTurns: 4, KeepRecentTokens: 100000,
		ToolResultMaxChars: 2000, ReasoningMaxChars: 2000, MaxInputChars: 400000, MaxSummaryRounds: 8}
}

func TestCompactionTrigger(t *testing.T) {
	for _, tc := range []struct {
		enabled bool
		total   int
		want    bool
	}{{true, 7999, false}, {true, 8000, true}, {true, 12000, true}, {false, 12000, false}} {
		c := Compactor{cfg: budget()}
		c.cfg.Enabled = tc.enabled
		if got := c.Due(tc.total); got != tc.want {
			t.Errorf("enabled=%v total=%d: due=%v, want %v (window 10000 - reserve 2000)", tc.enabled, tc.total, got, tc.want)
		}
	}
}

// The retained tail is bounded by keep_recent_turns and keep_recent_tokens,
// whole turns only; the turn in progress is always kept.
func TestCompactionRetainedTail(t *testing.T) {
	acc := history(10, 100) // each turn ≈ 4+3 + 4+... tokens; see perTurn
	perTurn := acc[0].tokens + acc[1].tokens + acc[2].tokens
	for _, tc := range []struct {
		name          string
		turns, tokens int
		current       int
		wantTailGroup int // first group of the tail; 11 = empty tail
	}{
		{"turn bound", 4, 1 << 20, 0, 7},
		{"token bound", 10, 2*perTurn + 1, 0, 9},
		{"token bound exact", 10, 3 * perTurn, 0, 8},
		{"zero keeps nothing", 0, 0, 0, 11},
		{"current turn always kept, not counted", 2, 1 << 20, 10, 8},
		{"current turn kept even with zero budget", 0, 0, 10, 10},
		{"unsent transient images keep their turn", 0, 0, -9, 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Compactor{cfg: budget()}
			c.cfg.KeepRecentTurns, c.cfg.KeepRecentTokens = tc.turns, tc.tokens
			acc := acc
			if tc.current < 0 { // an image of turn -current not yet sent
				acc = append([]entry(nil), acc...)
				acc[3*(-tc.current-1)+2].pending = true
				tc.current = 0
			}
			start, _ := c.plan(acc, tc.current, c.cfg.KeepRecentTokens)
			got := 11
			if start < len(acc) {
				got = acc[start].group
				if acc[start].kind != KindNotes || (start > 0 && acc[start-1].group == got) {
					t.Fatalf("tail starts inside turn %d", got)
				}
			}
			if got != tc.wantTailGroup {
				t.Fatalf("tail starts at turn %d, want %d", got, tc.wantTailGroup)
			}
		})
	}
}

func TestCompactionReplacesPrefixWithOneCheckpoint(t *testing.T) {
	acc := history(10, 100)
	s := &summariser{answer: fixed("the robot moved ten times")}
	c := Compactor{cfg: budget(), model: s, modelName: "test/sum"}
	last := acc[29].msg.Text() // run builds its result in acc's array
	out, info, err := c.run(t.Context(), acc, 0, c.cfg.KeepRecentTokens)
	if err != nil {
		t.Fatal(err)
	}
	if out[0].kind != KindCheckpoint || out[0].msg.Meta["kind"] != runlog.CheckpointKind {
		t.Fatalf("first entry %+v is not a checkpoint", out[0].msg)
	}
	meta := out[0].msg.Meta
	if meta["source"] != "accumulated turns 1-6 (18 messages) summarised by test/sum in 1 round(s)" || meta["first_turn"] != "1" || meta["last_turn"] != "6" || meta["model"] != "test/sum" {
		t.Fatalf("checkpoint metadata %v", meta)
	}
	if info.Kind != runlog.CheckpointKind || info.Source != meta["source"] || !info.OK || info.Rounds != 1 {
		t.Fatalf("info %+v", info)
	}
	// One checkpoint, then the last 4 turns verbatim (12 entries).
	if len(out) != 13 || out[1].group != 7 || out[12].msg.Text() != last {
		t.Fatalf("retained: %d entries starting at turn %d", len(out), out[1].group)
	}
	if !strings.Contains(out[0].msg.Text(), "the robot moved ten times") {
		t.Fatal("checkpoint text lacks the summary")
	}
	if s.reqs[0].Purpose != model.PurposeCompact {
		t.Fatalf("purpose %s", s.reqs[0].Purpose)
	}
	// A second compaction updates the previous checkpoint and keeps its start.
	s.answer = func(_ int, prev, _ string) (model.Response, error) {
		return model.Response{Text: prev + " + more"}, nil
	}
	more := append(out, history(14, 100)[30:]...) // turns 11..14
	out2, _, err := c.run(t.Context(), more, 0, c.cfg.KeepRecentTokens)
	if err != nil {
		t.Fatal(err)
	}
	if got := out2[0].msg.Meta; got["first_turn"] != "1" || got["last_turn"] != "10" || !strings.HasPrefix(out2[0].summary, "the robot moved ten times + more") {
		t.Fatalf("second checkpoint %v %q", got, out2[0].summary)
	}
	if n := strings.Count(fmt.Sprint(s.reqs[1].Messages), "Checkpoint summary"); n != 0 {
		t.Fatal("the old checkpoint message was sent as a new message instead of as the previous checkpoint")
	}
}

// Stored media is omitted; verbose results and reasoning keep start and end;
// the current Task Notes snapshot is never summarised.
func TestCompactionInputsAreSanitised(t *testing.T) {
	acc := history(6, 5000)
	img := world.Image{Camera: "head", MIME: "image/png", Width: 320, Height: 240, Data: []byte("PNGDATA")}
	acc[5].msg.Parts = append(acc[5].msg.Parts, model.Part{Image: &img})
	acc[4].reasoning = "THINK-START" + strings.Repeat("y", 5000) + "THINK-END"
	// The latest snapshot (turn 6) is pinned even though turn 6 is summarised.
	s := &summariser{answer: fixed("ok")}
	c := Compactor{cfg: budget(), model: s, modelName: "m"}
	c.cfg.KeepRecentTurns, c.cfg.ToolResultMaxChars, c.cfg.ReasoningMaxChars = 0, 300, 200
	out, _, err := c.run(t.Context(), acc, 0, c.cfg.KeepRecentTokens)
	if err != nil {
		t.Fatal(err)
	}
	in := s.reqs[0].Messages[1].Text()
	for _, want := range []string{"BEGIN2", "FINISH2", "chars omitted", "THINK-START", "THINK-END", "[image omitted: head 320x240]"} {
		if !strings.Contains(in, want) {
			t.Errorf("summary input lacks %q", want)
		}
	}
	for _, m := range s.reqs[0].Messages {
		for _, p := range m.Parts {
			if p.Image != nil {
				t.Fatal("an image reached the summary request")
			}
		}
	}
	if strings.Contains(in, "PNGDATA") || strings.Contains(in, "Task Notes v6") || strings.Contains(in, strings.Repeat("x", 400)) {
		t.Fatal("summary input holds media, the current notes snapshot or an unbounded result")
	}
	if len(out) != 2 || out[1].kind != KindNotes || out[1].msg.Text() != "Task Notes v6" {
		t.Fatalf("after compaction %d entries; the current notes snapshot must stay verbatim", len(out))
	}
}

// A prefix larger than max_input_chars is summarised in ordered rounds, each
// updating the previous checkpoint; at most max_summary_rounds, the rest
// stays verbatim so the middle is never dropped.
func TestCompactionOrderedRounds(t *testing.T) {
	for _, tc := range []struct {
		name      string
		maxRounds int
		rounds    int
		keptFrom  int // first verbatim turn after the checkpoint
	}{
		{"all in rounds", 8, 5, 0},
		{"round cap leaves the rest verbatim", 2, 2, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			acc := history(10, 400)
			s := &summariser{answer: func(n int, prev, chunk string) (model.Response, error) {
				first := chunk[strings.Index(chunk, "[turn ")+6:]
				return model.Response{Text: fmt.Sprintf("%s|r%d:%s", prev, n, first[:strings.Index(first, "]")])}, nil
			}}
			c := Compactor{cfg: budget(), model: s, modelName: "m"}
			c.cfg.KeepRecentTurns, c.cfg.MaxInputChars, c.cfg.MaxSummaryRounds = 0, 1200, tc.maxRounds
			out, info, err := c.run(t.Context(), acc, 0, c.cfg.KeepRecentTokens)
			if err != nil {
				t.Fatal(err)
			}
			if info.Rounds != tc.rounds || len(s.reqs) != tc.rounds {
				t.Fatalf("rounds %d (requests %d), want %d", info.Rounds, len(s.reqs), tc.rounds)
			}
			for i, r := range s.reqs {
				in := r.Messages[1].Text()
				body := strings.TrimPrefix(in, "Previous checkpoint:\n")
				prev, chunk, _ := strings.Cut(body, "\n\nNew messages:\n")
				if len(prev)+len(chunk) > c.cfg.MaxInputChars {
					t.Errorf("round %d input %d chars > max_input_chars", i+1, len(prev)+len(chunk))
				}
				if i > 0 && !strings.Contains(prev, fmt.Sprintf("|r%d:", i)) {
					t.Errorf("round %d does not update round %d's checkpoint: %q", i+1, i, prev)
				}
			}
			// Rounds cover turns in order, two turns per round.
			if want := "(none)|r1:1|r2:3"; !strings.HasPrefix(out[0].summary, want) {
				t.Fatalf("summary %q, want prefix %q", out[0].summary, want)
			}
			if tc.keptFrom > 0 {
				if out[1].group != tc.keptFrom || len(out) != 1+3*(10-tc.keptFrom+1) {
					t.Fatalf("after the round cap the verbatim rest starts at turn %d (%d entries)", out[1].group, len(out))
				}
			}
		})
	}
}

// A failed or malformed summary leaves the context unchanged.
func TestCompactionFailureChangesNothing(t *testing.T) {
	for _, tc := range []struct {
		name string
		resp model.Response
		err  error
		want string
	}{
		{"model error", model.Response{}, errors.New("rate limited"), "rate limited"},
		{"empty summary", model.Response{Text: "  "}, nil, "malformed summary: empty text"},
		{"tool call instead of summary", model.Response{Text: "x", ToolCalls: []model.ToolCall{{Name: "move"}}}, nil, "malformed summary"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			acc := history(8, 100)
			before := fmt.Sprint(acc)
			s := &summariser{answer: func(int, string, string) (model.Response, error) { return tc.resp, tc.err }}
			c := Compactor{cfg: budget(), model: s, modelName: "m"}
			out, info, err := c.run(t.Context(), acc, 0, c.cfg.KeepRecentTokens)
			if err == nil || !strings.Contains(err.Error(), tc.want) || out != nil || info.OK {
				t.Fatalf("run = %v, %+v, %v", out, info, err)
			}
			if fmt.Sprint(acc) != before {
				t.Fatal("a failed compaction modified the context")
			}
		})
	}
}

func TestBoundMiddle(t *testing.T) {
	s := "héllo wörld " + strings.Repeat("z", 100) + " the end"
	got := BoundMiddle(s, 60)
	if len(got) > 60 || !strings.HasPrefix(got, "héllo") || !strings.HasSuffix(got, "the end") {
		t.Fatalf("BoundMiddle = %q (%d bytes)", got, len(got))
	}
	if BoundMiddle("short", 60) != "short" || BoundMiddle(s, 0) != s {
		t.Fatal("BoundMiddle must leave short text (or a zero limit) alone")
	}
}

// A checkpoint that grew past the input budget (a verbose summariser) never
// blocks later compactions: it is bounded, keeping its start and end, and
// every request stays within max_input_chars.
func TestCompactionBoundsAnOversizeCheckpoint(t *testing.T) {
	big := "FIRST-FACT " + strings.Repeat("y", 3000) + " LAST-FACT"
	s := &summariser{answer: fixed(big)}
	c := Compactor{cfg: budget(), model: s, modelName: "m"}
	c.cfg.KeepRecentTurns, c.cfg.MaxInputChars = 0, 1200
	acc := history(4, 100)
	out, _, err := c.run(t.Context(), acc, 0, c.cfg.KeepRecentTokens)
	if err != nil {
		t.Fatal(err)
	}
	// The next compaction starts from the oversize checkpoint.
	acc = append(out, history(8, 100)[12:]...)
	out, info, err := c.run(t.Context(), acc, 0, c.cfg.KeepRecentTokens)
	if err != nil || !info.OK {
		t.Fatalf("second compaction failed: %v (%+v)", err, info)
	}
	for i, r := range s.reqs {
		if n := len(r.Messages[1].Text()); n > c.cfg.MaxInputChars+100 {
			t.Errorf("request %d is %d chars, want about max_input_chars (%d) at most", i+1, n, c.cfg.MaxInputChars)
		}
	}
	last := s.reqs[len(s.reqs)-1].Messages[1].Text()
	if !strings.Contains(last, "FIRST-FACT") || !strings.Contains(last, "LAST-FACT") {
		t.Fatalf("the bounded checkpoint lost its start or end")
	}
	if out[0].kind != KindCheckpoint {
		t.Fatalf("first entry %v, want the checkpoint", out[0].kind)
	}
}

func userText(s string) model.Message {
	return model.Message{Role: model.RoleUser, Parts: []model.Part{{Text: s}}}
}
