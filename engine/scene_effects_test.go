package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// A manipulation changes the Scene Graph only through its declared effects
// and only on an evaluator success: a failure, a call no evaluate hook
// judged, and a process verdict leave the Brief as it was, even when the tool
// itself claims success; the success applies once. The camera goes offline
// after the first turn, so only effects could change the Brief, and the
// observed facts age into stale.
func TestEffectsOnlyOnConfirmedSuccess(t *testing.T) {
	f := newFixture(t,
		toolResp("", call("pick_up", `{"object_name":"mug"}`)), // turn 1: failure verdict
		toolResp("", call("pick_up", `{"object_name":"mug"}`)), // turn 2: not evaluated
		toolResp("", call("pick_up", `{"object_name":"mug"}`)), // turn 3: process
		toolResp("", call("pick_up", `{"object_name":"mug"}`)), // turn 4: success
		toolResp("holding it"),
	)
	f.spec.Tools["pick_up"] = schema.ToolContract{Effects: []schema.Effect{
		{Remove: "relation", Of: "args.object_name"},
		{Set: "robot.holding", To: "args.object_name"},
	}}
	rules, errs := schema.CompileRules(f.spec)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	f.spec.Rules = rules
	observe := f.tool("observe")
	inner := observe.fn
	observe.fn = func(ctx context.Context, args map[string]any) runlog.Envelope {
		if observe.calls.Load() > 1 {
			return runlog.Failure("camera offline")
		}
		return inner(ctx, args)
	}
	f.addTool("core", "pick_up", func(context.Context, map[string]any) runlog.Envelope {
		return runlog.Envelope{Success: true, Value: map[string]any{"held": "mug"}} // the back-end's claim
	})
	f.policy.post = func(cc *engine.CallContext, _ *runlog.Envelope) engine.PostResult {
		switch cc.Call.Turn {
		case 1:
			return engine.PostResult{Verdict: &world.Verdict{Status: world.VerdictFailure, Reason: "still on the table"}}
		case 3:
			return engine.PostResult{Verdict: &world.Verdict{Status: world.VerdictProcess}}
		case 4:
			return engine.PostResult{Verdict: &world.Verdict{Status: world.VerdictSuccess}}
		}
		return engine.PostResult{}
	}
	evs := collect(f.harness(t).RunStream(t.Context(), "pick up the mug"))
	briefs := map[int]string{}
	var applied []runlog.Event
	for _, ev := range evs {
		if ev.Kind != runlog.EventScene {
			continue
		}
		if ev.Tool == "" {
			briefs[ev.Turn] = ev.Text
		} else {
			applied = append(applied, ev)
		}
	}
	const onTable = "- obj:mug (cup): on place:table, room kitchen [observe t1"
	for turn := 1; turn <= 4; turn++ {
		b := briefs[turn]
		// The observation never reports held: what the robot holds is
		// unknown, never "nothing".
		if !strings.Contains(b, onTable) || !strings.Contains(b, "robot: holding: unknown") {
			t.Errorf("turn %d Brief changed before a confirmed success:\n%s", turn, b)
		}
	}
	if !strings.Contains(briefs[4], "t1, stale]") || strings.Contains(briefs[3], ", stale]") {
		t.Errorf("facts from turn 1 must be stale at turn 4 (stale_after_turns 3), not at 3:\n%s\n%s", briefs[3], briefs[4])
	}
	want := "robot: holding obj:mug [pick_up ✓ t4]"
	if !strings.Contains(briefs[5], want) || !strings.Contains(briefs[5], "- obj:mug (cup): held by robot [pick_up ✓ t4]") || strings.Contains(briefs[5], "on place:table") {
		t.Errorf("turn 5 Brief after the success:\n%s", briefs[5])
	}
	if len(applied) != 1 || applied[0].Turn != 4 || applied[0].Text != "obj:mug on place:table removed; robot holding obj:mug" {
		t.Errorf("effect events %+v, want one at turn 4", applied)
	}
	// The Brief the model read is the one the stage rendered.
	reqs := f.decide.requests()
	if len(reqs) != 5 || !strings.Contains(reqText(reqs[4]), want) {
		t.Errorf("the model's fifth request lacks %q", want)
	}
}

// reqText is every text part of a request.
func reqText(r model.Request) string {
	var b strings.Builder
	for _, m := range r.Messages {
		for _, p := range m.Parts {
			b.WriteString(p.Text + "\n")
		}
	}
	return b.String()
}

// A physical manipulation that no verdict confirmed (no evaluator) leaves
// the Brief's facts as they were but marks what the call may have changed
// "unconfirmed since turn N" (A15); an observation that reports them again
// clears the marks.
func TestUnverifiedManipulationReadsUnconfirmed(t *testing.T) {
	f := newFixture(t,
		toolResp("", call("pick_up", `{"object_name":"mug"}`)), // turn 1: no evaluator
		toolResp("", call("move", `{}`)),                       // turn 2
		toolResp("done"),
	)
	f.spec.Tools["pick_up"] = schema.ToolContract{Physical: true, Effects: []schema.Effect{{Set: "robot.holding", To: "args.object_name"}}}
	rules, errs := schema.CompileRules(f.spec)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	f.spec.Rules = rules
	observe := f.tool("observe")
	observe.fn = func(context.Context, map[string]any) runlog.Envelope {
		switch observe.calls.Load() {
		case 1: // the mug on the table, the gripper empty
			return runlog.Envelope{Success: true, Value: map[string]any{"held": "",
				"detections": []any{map[string]any{"name": "mug", "class": "cup", "relation": "on", "target": "table", "room": "kitchen"}}}}
		case 2: // a camera-less view: nothing about the mug or the gripper
			return runlog.Envelope{Success: true, Value: map[string]any{"summary": "dark"}}
		}
		return runlog.Envelope{Success: true, Value: map[string]any{"held": "mug"}}
	}
	f.addTool("core", "pick_up", func(context.Context, map[string]any) runlog.Envelope {
		return runlog.Envelope{Success: true, Value: map[string]any{"held": "mug"}}
	})
	briefs := map[int]string{}
	for _, ev := range collect(f.harness(t).RunStream(t.Context(), "pick up the mug")) {
		if ev.Kind == runlog.EventScene && ev.Tool == "" {
			briefs[ev.Turn] = ev.Text
		}
	}
	if b := briefs[1]; strings.Contains(b, "unconfirmed") || !strings.Contains(b, "holding nothing [observe t1]") {
		t.Errorf("turn 1 Brief:\n%s", b)
	}
	b := briefs[2]
	if !strings.Contains(b, "robot: holding nothing [observe t1] (unconfirmed since turn 1)") ||
		!strings.Contains(b, "- obj:mug (cup): on place:table, room kitchen [observe t1] (unconfirmed since turn 1)") {
		t.Errorf("turn 2 Brief after a pick no verdict confirmed:\n%s", b)
	}
	if b := briefs[3]; strings.Contains(b, "unconfirmed") || !strings.Contains(b, "robot: holding obj:mug [observe t3]") {
		t.Errorf("turn 3 Brief after an observation reporting the mug held:\n%s", b)
	}
}
