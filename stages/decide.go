package stages

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/anyjson"
)

// Decide makes the turn's one model call. Before it, a replan is polled and
// cancellation checked. A response without a tool call ends the task: its
// text is the report. A model error ends the task with DoneError.
type Decide struct{}

// Name implements engine.Stage.
func (Decide) Name() string { return "decide" }

// Run implements engine.Stage.
func (Decide) Run(ctx context.Context, t *engine.Turn) error {
	if t.Cancelled(ctx, "the model decision") {
		return nil
	}
	t.PollReplan()
	t.SyncResident()
	req := t.Request()
	counts := t.Counts()
	t.Emit(engine.Event{Kind: engine.EventContext, Tokens: &counts})
	resp, err := t.Model().Generate(ctx, req)
	t.ConsumeImages()
	if err == nil {
		t.ObserveUsage(counts.Total, resp.Usage)
	}
	if err != nil {
		if t.Cancelled(ctx, "the model decision") {
			return nil
		}
		return fmt.Errorf("model: %w", err)
	}
	for i := range resp.ToolCalls {
		if resp.ToolCalls[i].ID == "" {
			resp.ToolCalls[i].ID = fmt.Sprintf("call_%d_%d_%d", t.Task(), t.Number, i)
		}
	}
	t.SetDecision(&resp)
	msg := model.Message{Role: model.RoleAssistant, ToolCalls: resp.ToolCalls}
	if resp.Text != "" {
		msg.Parts = []model.Part{{Text: resp.Text}}
	}
	t.AppendResponse(msg, resp.Reasoning)
	ev := engine.Event{Kind: engine.EventModel, Text: resp.Text}
	if resp.Usage != (model.Usage{}) {
		u := resp.Usage
		ev.Usage = &u
	}
	if len(resp.ToolCalls) > 0 {
		args, _ := keepArgs(t, resp.ToolCalls[0].Arguments)
		ev.Tool, ev.CallID, ev.Args = resp.ToolCalls[0].Name, resp.ToolCalls[0].ID, args
	}
	t.Emit(ev)
	if len(resp.ToolCalls) == 0 {
		t.End(engine.Report{Text: resp.Text, Reason: engine.DoneFinal})
	}
	return nil
}

// parseArgs decodes a call's arguments; they must be a JSON object (empty
// means no arguments). Numbers are float64, as json.Unmarshal gives them.
func parseArgs(raw json.RawMessage) (map[string]any, error) {
	if len(raw) == 0 {
		return map[string]any{}, nil
	}
	v, err := anyjson.Unmarshal(raw, anyjson.Float64)
	if err != nil {
		return nil, fmt.Errorf("want a JSON object: %w", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want a JSON object, got %s", anyjson.Kind(v))
	}
	return m, nil
}
