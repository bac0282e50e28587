package engine

import (
	"context"
	"fmt"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
)

// decide makes the turn's one model call. Before it, a replan is polled and
// cancellation checked. A response without a tool call ends the task: its
// text is the report. A model error ends the task with DoneError.
func (tn *Turn) decide(ctx context.Context) error {
	if tn.Cancelled(ctx, "the model decision") {
		return nil
	}
	tn.pollReplan()
	tn.h.syncResident(tn.t)
	if over := tn.fitBudget(ctx); over != nil {
		tn.end = over
		return nil
	}
	req := tn.request()
	counts := tn.counts()
	tn.Emit(runlog.Event{Kind: runlog.EventContext, Tokens: &counts})
	resp, err := tn.h.model.Generate(ctx, req)
	tn.consumeImages()
	if err == nil {
		tn.observeUsage(counts.Total, resp.Usage)
	}
	if err != nil {
		if tn.Cancelled(ctx, "the model decision") {
			return nil
		}
		return fmt.Errorf("model: %w", err)
	}
	for i := range resp.ToolCalls {
		if resp.ToolCalls[i].ID == "" {
			resp.ToolCalls[i].ID = fmt.Sprintf("call_%d_%d_%d", tn.t.n, tn.Number, i)
		}
	}
	// One tool call per turn: the first runs; each other call is answered
	// with its own refusal when the turn is recorded, so every call the
	// transcript holds has exactly one result (as the wires require). Past
	// refusedKept extra calls, the rest leave the transcript (the last
	// kept refusal counts them): a response of 10,000 calls does not grow
	// every request after it.
	tn.extra, tn.dropped = nil, 0
	if len(resp.ToolCalls) > 1 {
		keep := min(len(resp.ToolCalls), 1+refusedKept)
		tn.dropped = len(resp.ToolCalls) - keep
		resp.ToolCalls = resp.ToolCalls[:keep:keep]
		tn.extra = resp.ToolCalls[1:]
	}
	tn.resp, tn.args = &resp, parsedArgs{}
	msg := model.Message{Role: model.RoleAssistant, ToolCalls: resp.ToolCalls}
	if resp.Text != "" {
		msg.Parts = []model.Part{{Text: resp.Text}}
	}
	tn.appendResponse(msg, resp.Reasoning)
	ev := runlog.Event{Kind: runlog.EventModel, Text: resp.Text}
	if resp.Usage != (model.Usage{}) {
		u := resp.Usage
		ev.Usage = &u
	}
	if len(resp.ToolCalls) > 0 {
		first := resp.ToolCalls[0]
		tn.args = parseArgsOnce(first.Arguments)
		ev.Tool, ev.CallID, ev.Args = first.Name, first.ID, tn.args.value
	}
	tn.Emit(ev)
	if len(resp.ToolCalls) == 0 {
		tn.end = &runlog.Report{Text: resp.Text, Reason: runlog.DoneFinal}
	}
	return nil
}
