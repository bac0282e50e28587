package anthropic

import (
	"encoding/json"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/models/internal/wiretest"
	"github.com/thea-harness/thea/world"
)

// What the harness writes beside a tool's result (the refusal of the
// response's other calls, a consumed image's placeholder) is a text block of
// its own inside the tool_result, never joined to the result's text; the
// result's image follows its own label block.
func TestNotesBesideAResultAreSentApart(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(200, `{"type":"message","role":"assistant","content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn"}`))
	req := firstRequest()
	req.Messages[1].Parts = req.Messages[1].Parts[:1]
	req.Messages = append(req.Messages,
		model.Message{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: "call_1", Name: "look", Arguments: json.RawMessage(`{}`)}}},
		model.Message{Role: model.RoleTool, ToolCallID: "call_1", Name: "look", Parts: []model.Part{
			{Text: `{"success":true}`}, {Text: "not executed: one tool call per turn."},
			{Text: "\n[image: head camera, 320x240, consumed at turn 2]"},
			{Image: &world.Image{Camera: "wrist", MIME: "image/png", Width: 2, Height: 2, Data: png}}}},
		model.Message{Role: model.RoleUser, Parts: []model.Part{{Text: "Observation: kitchen."}}},
	)
	if _, err := newModel(t, f, &wiretest.Sleeps{}).Generate(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	msgs, _ := json.Marshal(wiretest.Field(t, f.Requests()[0].Body, "messages"))
	wiretest.EqualJSON(t, msgs, `[
	 {"role": "user", "content": [{"type": "text", "text": "Go to the kitchen."}]},
	 {"role": "assistant", "content": [{"type": "tool_use", "id": "call_1", "name": "look", "input": {}}]},
	 {"role": "user", "content": [
	   {"type": "tool_result", "tool_use_id": "call_1", "content": [
	     {"type": "text", "text": "{\"success\":true}"},
	     {"type": "text", "text": "not executed: one tool call per turn."},
	     {"type": "text", "text": "[image: head camera, 320x240, consumed at turn 2]"},
	     {"type": "text", "text": "Camera \"wrist\" (2x2):"}, `+pngBlock+`]},
	   {"type": "text", "text": "Observation: kitchen."}]}]`)
}
