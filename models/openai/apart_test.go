package openai

import (
	"encoding/json"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/models/internal/wiretest"
	"github.com/thea-harness/thea/world"
)

// What the harness writes beside a tool's result (the refusal of the
// response's other calls, a consumed image's placeholder) is sent apart from
// it: the tool message's content is the result alone, well-formed JSON, and
// the notes follow in the user message after it, before the result's image
// and its label.
func TestNotesBesideAResultAreSentApart(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(200, `{"choices":[{"message":{"role":"assistant","content":"Done."},"finish_reason":"stop"}]}`))
	m, err := build(testConfig(t, f), wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
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
	if _, err := m.Generate(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	msgs, _ := json.Marshal(wiretest.Field(t, f.Requests()[0].Body, "messages"))
	wiretest.EqualJSON(t, msgs, `[
	 {"role": "system", "content": "You drive a robot."},
	 {"role": "user", "content": "Go to the kitchen."},
	 {"role": "assistant", "content": "", "tool_calls": [
	   {"id": "call_1", "type": "function", "function": {"name": "look", "arguments": "{}"}}]},
	 {"role": "tool", "tool_call_id": "call_1", "content": "{\"success\":true}"},
	 {"role": "user", "content": [
	   {"type": "text", "text": "Beside the result of the look call call_1:"},
	   {"type": "text", "text": "not executed: one tool call per turn."},
	   {"type": "text", "text": "[image: head camera, 320x240, consumed at turn 2]"},
	   {"type": "text", "text": "Camera \"wrist\" (2x2):"},
	   {"type": "image_url", "image_url": {"url": "`+pngURL+`"}}]},
	 {"role": "user", "content": "Observation: kitchen."}]`)
}
