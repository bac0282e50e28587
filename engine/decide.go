package engine

import (
	"context"
	"fmt"
	"strconv"
	"strings"

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
	// One tool call per turn: the first runs; the others are refused in one
	// bounded line, and the response is recorded with the first call only,
	// so that every call the transcript holds has its result (as the wires
	// require) and a response of 10,000 calls does not grow every request
	// after it.
	if len(resp.ToolCalls) > 1 {
		tn.refused = refusedLine(resp.ToolCalls)
		resp.ToolCalls = resp.ToolCalls[:1:1]
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

// refusedNames bounds how many refused calls the refusal names, and
// refusedNameChars each name: the line stays short for any response.
const (
	refusedNames     = 5
	refusedNameChars = 64
)

// refusedLine is the one refusal of a response's extra calls: how many,
// and the first few by name.
func refusedLine(calls []model.ToolCall) string {
	extra := calls[1:]
	var b strings.Builder
	b.WriteString("not executed: one tool call per turn. Only the first call (")
	b.WriteString(oneLine(calls[0].Name, refusedNameChars))
	b.WriteString(") ran; ")
	b.WriteString(strconv.Itoa(len(extra)))
	if len(extra) == 1 {
		b.WriteString(" other call was refused: ")
	} else {
		b.WriteString(" other calls were refused: ")
	}
	for i, c := range extra[:min(len(extra), refusedNames)] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(oneLine(c.Name, refusedNameChars))
	}
	if n := len(extra) - refusedNames; n > 0 {
		fmt.Fprintf(&b, " and %d more", n)
	}
	b.WriteString(". Call again in a later turn whatever is still needed.")
	return b.String()
}
