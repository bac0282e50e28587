package anthropic

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/models/internal/wiretest"
	"github.com/thea-harness/thea/schema"
)

// A tool named outside ^[a-zA-Z0-9_-]{1,64}$ is offered under its alias (a
// strict server accepts it), the history's tool_use carries the alias, and
// the model's call of the alias comes back under the tool's own name.
// Before, the request was refused: tools.0.custom.name.
func TestToolNameAliases(t *testing.T) {
	f := wiretest.New(t, wiretest.StrictAnthropic(wiretest.Reply(200, `{"type":"message","role":"assistant","content":[
	 {"type":"tool_use","id":"toolu_2","name":"arm_status","input":{}}],"stop_reason":"tool_use","usage":{"input_tokens":5,"output_tokens":5}}`)))
	req := firstRequest()
	req.Tools = []model.ToolDef{{Name: "arm.status", Description: "Arm state."}}
	req.Messages = append(req.Messages,
		model.Message{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: "toolu_1", Name: "arm.status", Arguments: json.RawMessage(`{}`)}}},
		model.Message{Role: model.RoleTool, ToolCallID: "toolu_1", Name: "arm.status", Parts: []model.Part{{Text: `{"success":true}`}}})
	resp, err := newModel(t, f, &wiretest.Sleeps{}).Generate(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if c := resp.ToolCalls[0]; c.Name != "arm.status" || c.WireName != "arm_status" {
		t.Fatalf("call %+v", c)
	}
	body := string(f.Requests()[0].Body)
	if !strings.Contains(body, `{"type":"tool_use","id":"toolu_1","name":"arm_status","input":{}}`) || strings.Contains(body, "arm.status") {
		t.Fatalf("body %s", body)
	}
}

// A failed tool result is marked is_error (a failure envelope); a
// successful one carries no flag.
func TestFailedToolResultIsError(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(200, toolCallReply))
	req := firstRequest()
	req.Messages[1].Parts = req.Messages[1].Parts[:1]
	req.Messages = append(req.Messages,
		model.Message{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{
			{ID: "call_1", Name: "move", Arguments: json.RawMessage(`{"x":1}`)},
			{ID: "call_2", Name: "move", Arguments: json.RawMessage(`{"x":2}`)}}},
		model.Message{Role: model.RoleTool, ToolCallID: "call_1", Name: "move", Parts: []model.Part{{Text: `{"success":true}`}}},
		model.Message{Role: model.RoleTool, ToolCallID: "call_2", Name: "move", IsError: true,
			Parts: []model.Part{{Text: `{"success":false,"reason":"not executed: one call per turn"}`}}})
	if _, err := newModel(t, f, &wiretest.Sleeps{}).Generate(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	msgs, _ := json.Marshal(wiretest.Field(t, f.Requests()[0].Body, "messages"))
	wiretest.EqualJSON(t, msgs, `[
	 {"role": "user", "content": [{"type": "text", "text": "Go to the kitchen."}]},
	 {"role": "assistant", "content": [
	   {"type": "tool_use", "id": "call_1", "name": "move", "input": {"x": 1}},
	   {"type": "tool_use", "id": "call_2", "name": "move", "input": {"x": 2}}]},
	 {"role": "user", "content": [
	   {"type": "tool_result", "tool_use_id": "call_1", "content": [{"type": "text", "text": "{\"success\":true}"}]},
	   {"type": "tool_result", "tool_use_id": "call_2", "is_error": true,
	    "content": [{"type": "text", "text": "{\"success\":false,\"reason\":\"not executed: one call per turn\"}"}]}]}]`)
}

// A bad key names the variable; a 400 about a tool names the tool.
func TestErrorsSayWhatToFix(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`))
	_, err := newModel(t, f, &wiretest.Sleeps{}).Generate(t.Context(), firstRequest())
	if want := "anthropic: HTTP 401: invalid x-api-key (authentication_error) — check the key in THEA_TEST_KEY (model.api_key_env)"; err == nil || err.Error() != want {
		t.Fatalf("err %v\nwant %s", err, want)
	}
	f = wiretest.New(t, wiretest.Reply(400, `{"type":"error","error":{"type":"invalid_request_error","message":"tools.1.custom.input_schema: JSON schema is invalid"}}`))
	req := firstRequest()
	req.Tools = append(req.Tools, model.ToolDef{Name: "cam.look"})
	_, err = newModel(t, f, &wiretest.Sleeps{}).Generate(t.Context(), req)
	if want := `anthropic: HTTP 400: tools.1.custom.input_schema: JSON schema is invalid (invalid_request_error) — the field is in the tool "cam.look" (sent as "cam_look")`; err == nil || err.Error() != want {
		t.Fatalf("err %v\nwant %s", err, want)
	}
}

// wire.temperature "omit" sends no temperature; the parts of wire that mean
// nothing on the Messages API are refused at validate and at start.
func TestWireOverride(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(200, toolCallReply))
	cfg := testConfig(t, f)
	cfg.Wire = schema.ModelWire{Temperature: "omit"}
	m, err := NewWithOptions(cfg, wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Generate(t.Context(), firstRequest()); err != nil {
		t.Fatal(err)
	}
	if got := wiretest.Field(t, f.Requests()[0].Body, "temperature"); got != nil {
		t.Fatalf("temperature %v sent", got)
	}
	cfg.Wire = schema.ModelWire{TokenLimitField: "max_completion_tokens"}
	if _, err := NewWithOptions(cfg, wiretest.Options(&wiretest.Sleeps{})); err == nil || !strings.Contains(err.Error(), "token_limit_field does not apply to anthropic") {
		t.Fatalf("err %v", err)
	}
	// No temperature in the spec: 0, as before.
	cfg = testConfig(t, f)
	cfg.Temperature = nil
	m, err = NewWithOptions(cfg, wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Generate(t.Context(), firstRequest()); err != nil {
		t.Fatal(err)
	}
	if got := wiretest.Field(t, f.Requests()[1].Body, "temperature"); got != 0.0 {
		t.Fatalf("temperature %v, want 0", got)
	}
}
