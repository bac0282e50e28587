package engine_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// factKeeper is a fake summariser that carries every FACT line forward and
// counts what it folded in, so its output stays small.
type factKeeper struct {
	calls int
	fail  int // fail this many first calls
}

func (k *factKeeper) Generate(_ context.Context, req model.Request) (model.Response, error) {
	k.calls++
	if req.Purpose != model.PurposeCompact {
		return model.Response{}, errors.New("factKeeper only compacts")
	}
	if k.calls <= k.fail {
		if k.calls%2 == 1 {
			return model.Response{}, errors.New("summariser unavailable")
		}
		return model.Response{Text: ""}, nil // malformed
	}
	in := req.Messages[len(req.Messages)-1].Text()
	facts := map[string]bool{}
	var keep []string
	for line := range strings.SplitSeq(in, "\n") {
		if i := strings.Index(line, "FACT:"); i >= 0 {
			f := line[i:]
			if j := strings.IndexAny(f, `"\`); j > 0 {
				f = f[:j]
			}
			if !facts[f] {
				facts[f] = true
				keep = append(keep, f)
			}
		}
	}
	return model.Response{Text: strings.Join(keep, "\n") + "\n(and routine moves)"}, nil
}

func longTask(n int) []model.Response {
	rs := make([]model.Response, 0, n+1)
	for i := range n {
		rs = append(rs, toolResp("moving on", call("move", `{"step":`+itoa(i)+`}`)))
	}
	return append(rs, toolResp("finished"))
}

func TestTwoThousandTurnsStayWithinTheWindow(t *testing.T) {
	const turns = 2000
	f := newFixture(t, longTask(turns)...)
	f.spec.Safety.MaxTurns = turns + 1
	c := &f.spec.Context.Compaction
	c.Enabled, c.ContextWindow, c.ReserveTokens = true, 6000, 1000
	c.KeepRecentTurns, c.KeepRecentTokens, c.ToolResultMaxChars = 4, 1500, 600
	c.MaxInputChars, c.MaxSummaryRounds = 4000, 3
	c.CompactionModel = &schema.Model{Provider: "test", Config: testModel{Name: "summariser"}}
	keeper := &factKeeper{}
	f.compact = &recorder{inner: keeper, name: "summariser"}
	f.tool("move").fn = func(context.Context, map[string]any) runlog.Envelope {
		return runlog.Envelope{Success: true, Value: map[string]any{"log": strings.Repeat("odometry ", 120)}}
	}
	limit := c.ContextWindow - c.ReserveTokens
	var compactions, maxTotal int
	var last runlog.Event
	for ev := range f.harness(t).RunStream(t.Context(), "FACT: the spare key is under the blue mat. Patrol the hall.") {
		switch ev.Kind {
		case runlog.EventContext:
			maxTotal = max(maxTotal, ev.Tokens.Total)
			if ev.Tokens.Total >= limit {
				t.Fatalf("turn %d: request of %d tokens reaches context_window - reserve_tokens (%d)", ev.Turn, ev.Tokens.Total, limit)
			}
		case runlog.EventCompaction:
			if !ev.Compaction.OK {
				t.Fatalf("turn %d: compaction failed: %s", ev.Turn, ev.Compaction.Error)
			}
			compactions++
		}
		last = ev
	}
	if last.Kind != runlog.EventDone || last.Done.Reason != runlog.DoneFinal || last.Done.Turns != turns+1 {
		t.Fatalf("last event %+v", last.Done)
	}
	if compactions < 10 {
		t.Fatalf("only %d compactions over %d turns", compactions, turns)
	}
	reqs := f.decide.requests()
	if len(reqs) != turns+1 {
		t.Fatalf("%d decide requests", len(reqs))
	}
	for _, i := range []int{turns / 2, turns} {
		txt := requestText(reqs[i])
		if !strings.Contains(txt, "FACT: the spare key is under the blue mat") {
			t.Fatalf("request %d lost the turn-1 fact", i)
		}
		if len(txt) > 4*limit {
			t.Fatalf("request %d is %d chars, beyond the budget", i, len(txt))
		}
	}
	cp := reqs[turns].Messages[1]
	if cp.Meta["kind"] != runlog.CheckpointKind || !strings.Contains(cp.Meta["source"], "summarised by test/summariser") || cp.Meta["first_turn"] != "1" {
		t.Fatalf("checkpoint message meta %v", cp.Meta)
	}
	for _, r := range f.compact.requests() {
		if len(r.Messages[1].Text()) > c.MaxInputChars+64 {
			t.Fatalf("summary request of %d chars beyond max_input_chars", len(r.Messages[1].Text()))
		}
	}
	t.Logf("max request %d tokens (limit %d), %d compactions, %d summary calls", maxTotal, limit, compactions, keeper.calls)
}

// A failed summary changes nothing and a later attempt retries: the
// request is over its budget, so the retry comes before it is sent (a
// request never goes out over the budget); without compaction_model the
// main model summarises.
func TestCompactionRetriesAndUsesTheMainModel(t *testing.T) {
	f := newFixture(t, longTask(30)...)
	c := &f.spec.Context.Compaction
	c.Enabled, c.ContextWindow, c.ReserveTokens = true, 1200, 500
	c.KeepRecentTurns, c.KeepRecentTokens = 2, 100000
	keeper := &factKeeper{fail: 1}
	f.decide.inner = purposeRouter{decide: f.decide.inner, compact: keeper}
	var infos []runlog.CompactionInfo
	var turns []int
	var done *runlog.Report
	for ev := range f.harness(t).RunStream(t.Context(), "FACT: red door. go") {
		switch ev.Kind {
		case runlog.EventCompaction:
			infos, turns = append(infos, *ev.Compaction), append(turns, ev.Turn)
		case runlog.EventDone:
			done = ev.Done
		}
	}
	if done == nil || done.Reason != runlog.DoneFinal {
		t.Fatalf("the task did not finish: %+v", done)
	}
	if len(infos) < 2 || infos[0].OK || !infos[1].OK || turns[0] != turns[1] {
		t.Fatalf("compaction attempts %+v at turns %v: want a failure, then success in the same turn", infos, turns)
	}
	if infos[0].MessagesAfter != infos[0].MessagesBefore || infos[0].TokensAfter != infos[0].TokensBefore {
		t.Fatalf("a failed compaction changed the context: %+v", infos[0])
	}
	if !strings.Contains(infos[0].Error, "summariser unavailable") {
		t.Fatalf("error %q", infos[0].Error)
	}
	if infos[1].MessagesAfter >= infos[1].MessagesBefore || !strings.Contains(infos[1].Source, "summarised by test/main") {
		t.Fatalf("success %+v", infos[1])
	}
	var compactReqs int
	for _, r := range f.decide.requests() {
		if r.Purpose == model.PurposeCompact {
			compactReqs++
		}
	}
	if compactReqs != keeper.calls || compactReqs < 2 {
		t.Fatalf("the main model got %d compact requests, summariser saw %d", compactReqs, keeper.calls)
	}
}

// purposeRouter answers decide and compact requests with different fakes
// behind one model, as a real main model would serve both.
type purposeRouter struct{ decide, compact model.Model }

func (p purposeRouter) Generate(ctx context.Context, req model.Request) (model.Response, error) {
	if req.Purpose == model.PurposeCompact {
		return p.compact.Generate(ctx, req)
	}
	return p.decide.Generate(ctx, req)
}
