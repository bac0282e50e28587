package openai

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/models/internal/wiretest"
)

// callsReply answers each request with two tool calls of fresh ids (a
// parallel call: Gemini signs only the first).
func callsReply(name string) http.HandlerFunc {
	var n atomic.Int32
	return func(w http.ResponseWriter, r *http.Request) {
		k := n.Add(1)
		wiretest.Reply(200, fmt.Sprintf(`{"choices":[{"message":{"role":"assistant","content":"","tool_calls":[
		 {"id":"call_%d_a","type":"function","function":{"name":%q,"arguments":"{\"x\":1}"}},
		 {"id":"call_%d_b","type":"function","function":{"name":%q,"arguments":"{\"x\":2}"}}]},"finish_reason":"tool_calls"}],
		 "usage":{"prompt_tokens":10,"completion_tokens":2}}`, k, name, k, name))(w, r)
	}
}

// answer appends the assistant turn and a result for each of its calls, the
// way the engine stores them, through JSON (as the run log holds them; the
// image, whose bytes the run log keeps in a file of its own, is left out).
func answer(t *testing.T, req *model.Request, resp model.Response) {
	t.Helper()
	req.Messages[1].Parts = req.Messages[1].Parts[:1]
	msgs := append(req.Messages, model.Message{Role: model.RoleAssistant, ToolCalls: resp.ToolCalls})
	for _, c := range resp.ToolCalls {
		msgs = append(msgs, model.Message{Role: model.RoleTool, ToolCallID: c.ID, Name: c.Name, Parts: []model.Part{{Text: `{"success":true}`}}})
	}
	msgs = append(msgs, model.Message{Role: model.RoleUser, Parts: []model.Part{{Text: "Observation: moved."}}})
	b, err := json.Marshal(msgs)
	if err != nil {
		t.Fatal(err)
	}
	req.Messages = nil
	if err := json.Unmarshal(b, &req.Messages); err != nil {
		t.Fatal(err)
	}
}

// Gemini 3's thought signatures come back on every function call they came
// with, turn after turn, for the whole history: a server as strict as
// Google's accepts every request. Before, the second request was refused
// (HTTP 400, "Function call is missing a thought_signature").
func TestGemini3ThoughtSignaturesRoundTrip(t *testing.T) {
	g := wiretest.NewGemini3()
	f := wiretest.New(t, g.Handler(callsReply("move")))
	cfg := testConfig(t, f)
	cfg.Provider, cfg.Name, cfg.Temperature = "google", "gemini-3-pro-preview", nil
	m, err := NewWithOptions(cfg, wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	req := firstRequest()
	for turn := 1; turn <= 4; turn++ {
		resp, err := m.Generate(t.Context(), req)
		if err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
		if len(resp.ToolCalls) != 2 || !strings.Contains(string(resp.ToolCalls[0].Extra), `"thought_signature"`) || resp.ToolCalls[1].Extra != nil {
			t.Fatalf("turn %d: calls %+v", turn, resp.ToolCalls)
		}
		answer(t, &req, resp)
	}
	if g.Issued() != 4 {
		t.Fatalf("%d signatures issued, want 4", g.Issued())
	}
	// The last request carries all four, each on its own call, verbatim.
	last := string(f.Requests()[3].Body)
	for k := 1; k <= 3; k++ {
		sig := fmt.Sprintf(`"extra_content":{"google":{"thought_signature":"CiQB%04dsig/call_%d_a=="}}`, k, k)
		if !strings.Contains(last, sig) {
			t.Fatalf("request 4 lacks %s:\n%s", sig, last)
		}
	}
	if n := strings.Count(last, `"extra_content"`); n != 3 {
		t.Fatalf("request 4 has %d extra_content, want 3 (the unsigned calls get none)", n)
	}
	for i, temp := range g.Temperatures {
		if temp == nil || *temp != 1 {
			t.Fatalf("request %d: temperature %v, want 1 (Gemini 3, none in the spec)", i+1, temp)
		}
	}
}

// A history whose signature was lost is refused by the strict server, and
// the error carries Google's message (its error comes wrapped in a list).
func TestGemini3MissingSignatureIsNamed(t *testing.T) {
	g := wiretest.NewGemini3()
	f := wiretest.New(t, g.Handler(callsReply("move")))
	cfg := testConfig(t, f)
	cfg.Provider, cfg.Name = "google", "gemini-3-flash-preview"
	m, err := NewWithOptions(cfg, wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	req := firstRequest()
	resp, err := m.Generate(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	resp.ToolCalls[0].Extra = nil
	answer(t, &req, resp)
	_, err = m.Generate(t.Context(), req)
	if err == nil || !strings.HasPrefix(err.Error(), "google: HTTP 400: Function call is missing a thought_signature in functionCall parts.") ||
		!strings.Contains(err.Error(), "(INVALID_ARGUMENT)") {
		t.Fatalf("err %v", err)
	}
}

// Tool names outside ^[a-zA-Z0-9_-]{1,64}$ travel as stable aliases: a
// strict server accepts the definitions and the history; the model's call
// of an alias comes back under the tool's own name, the alias kept in
// WireName. Before, the first request was refused (tools[0].function.name).
func TestToolNameAliases(t *testing.T) {
	long := "warehouse.arm." + strings.Repeat("calibrate_", 7) + "gripper"
	longWire := model.WireToolName(long)
	f := wiretest.New(t, wiretest.StrictOpenAI(wiretest.OpenAIRules{}, callsReply("arm_status")))
	m, err := NewWithOptions(testConfig(t, f), wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	req := firstRequest()
	req.Tools = append(req.Tools, model.ToolDef{Name: "arm.status", Description: "Arm state."}, model.ToolDef{Name: long, Description: "Calibrate."})
	for turn := 1; turn <= 2; turn++ {
		resp, err := m.Generate(t.Context(), req)
		if err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
		if c := resp.ToolCalls[0]; c.Name != "arm.status" || c.WireName != "arm_status" {
			t.Fatalf("turn %d: call %+v", turn, c)
		}
		answer(t, &req, resp)
	}
	body := string(f.Requests()[1].Body)
	if !strings.Contains(body, `"name":"arm_status","description":"Arm state."`) || !strings.Contains(body, `"name":"`+longWire+`"`) ||
		strings.Contains(body, "arm.status") || len(longWire) != 64 {
		t.Fatalf("request 2:\n%s", body)
	}
	// Two tools that would look the same to the model are refused.
	req.Tools = append(req.Tools, model.ToolDef{Name: "arm_status"})
	if _, err := m.Generate(t.Context(), req); err == nil || !strings.Contains(err.Error(), `tools "arm.status" and "arm_status" would both reach the model as "arm_status"`) {
		t.Fatalf("err %v", err)
	}
}

// A bad key names the variable it came from; a 400 naming a tool field
// names the tool.
func TestErrorsSayWhatToFix(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(401, `{"error":{"message":"Incorrect API key provided: sk-te***ret.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`))
	m, err := NewWithOptions(testConfig(t, f), wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Generate(t.Context(), firstRequest())
	if want := "openai: HTTP 401: Incorrect API key provided: sk-te***ret. (invalid_request_error) — check the key in THEA_TEST_KEY (model.api_key_env)"; err == nil || err.Error() != want {
		t.Fatalf("err %v\nwant %s", err, want)
	}
	f = wiretest.New(t, wiretest.Reply(400, `{"error":{"message":"Invalid schema for function 'look': In context=(), 'additionalProperties' is required.","type":"invalid_request_error","param":"tools[1].function.parameters","code":"invalid_function_parameters"}}`))
	m, err = NewWithOptions(testConfig(t, f), wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	req := firstRequest()
	req.Tools = append(req.Tools, model.ToolDef{Name: "cam.look"})
	_, err = m.Generate(t.Context(), req)
	if want := `(field tools[1].function.parameters) — the field is in the tool "cam.look" (sent as "cam_look")`; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("err %v\nwant …%s", err, want)
	}
}

// A 429 and two 500s, retried and recovered: each retry is reported with
// its attempt, status, wait and the provider's message.
func TestRetriesReportedThroughTheAdapter(t *testing.T) {
	limited := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "2")
		wiretest.Reply(429, `{"error":{"message":"Rate limit reached for gpt-test","type":"requests"}}`)(w, r)
	}
	failed := wiretest.Reply(500, `{"error":{"message":"The server had an error","type":"server_error"}}`)
	f := wiretest.New(t, limited, failed, failed, wiretest.Reply(200, toolCallReply))
	cfg := testConfig(t, f)
	cfg.Retries = 3
	s := &wiretest.Sleeps{}
	m, err := NewWithOptions(cfg, wiretest.Options(s))
	if err != nil {
		t.Fatal(err)
	}
	var got []model.Retry
	ctx := model.WithRetryReport(t.Context(), func(r model.Retry) { got = append(got, r) })
	if _, err := m.Generate(ctx, firstRequest()); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Status != 429 || got[0].Wait() != 2*time.Second || !got[0].RetryAfter ||
		got[0].Message != "Rate limit reached for gpt-test (requests)" || got[1].Status != 500 || got[2].Attempt != 3 ||
		got[2].Wait() != s.Got()[2].Truncate(time.Millisecond) || got[0].Provider != "openai" {
		t.Fatalf("retries %+v (slept %v)", got, s.Got())
	}
}
