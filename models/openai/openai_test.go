package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/model/call"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/models/internal/wiretest"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

var (
	png    = []byte("\x89PNG\r\n\x1a\nfake")
	pngURL = "data:image/png;base64,iVBORw0KGgpmYWtl"
)

func moveTool() model.ToolDef {
	return model.ToolDef{Name: "move", Description: "Move the base.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"number"}},"required":["x"]}`)}
}

func firstRequest() model.Request {
	return model.Request{Purpose: model.PurposeDecide, Tools: []model.ToolDef{moveTool()}, Messages: []model.Message{
		{Role: model.RoleSystem, Parts: []model.Part{{Text: "You drive a robot."}}, CacheBreakpoint: true},
		{Role: model.RoleUser, Parts: []model.Part{{Text: "Go to the kitchen."}, {Image: &world.Image{Camera: "front", MIME: "image/png", Data: png}}}},
	}}
}

const toolCallReply = `{"id":"c1","object":"chat.completion","model":"gpt-test","choices":[{"index":0,
 "message":{"role":"assistant","content":"Moving.","tool_calls":[{"id":"call_1","type":"function","function":{"name":"move","arguments":"{\"x\": 1.5}"}}]},
 "finish_reason":"tool_calls"}],"usage":{"prompt_tokens":900,"completion_tokens":20,"total_tokens":920,"prompt_tokens_details":{"cached_tokens":512}}}`

// The first decide request: system, user text + image (a data: URL part),
// tool definitions, every setting explicit; the tool call comes back with its
// id, arguments and usage (cached tokens included).
func TestToolCallAndImage(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(200, toolCallReply))
	m, err := build(testConfig(t, f), wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := m.Generate(t.Context(), firstRequest())
	if err != nil {
		t.Fatal(err)
	}
	want := model.Response{Text: "Moving.",
		ToolCalls: []model.ToolCall{{ID: "call_1", Name: "move", Arguments: json.RawMessage(`{"x": 1.5}`)}},
		Usage:     model.Usage{InputTokens: 900, CachedInputTokens: 512, OutputTokens: 20}}
	if g, _ := json.Marshal(resp); string(g) != string(must(json.Marshal(want))) {
		t.Fatalf("response %s", g)
	}
	reqs := f.Requests()
	if len(reqs) != 1 || reqs[0].Path != "/v1/chat/completions" {
		t.Fatalf("requests %+v", reqs)
	}
	wiretest.EqualJSON(t, reqs[0].Body, `{
	 "model": "gpt-test",
	 "messages": [
	  {"role": "system", "content": "You drive a robot."},
	  {"role": "user", "content": [
	    {"type": "text", "text": "Go to the kitchen."},
	    {"type": "image_url", "image_url": {"url": "`+pngURL+`"}}]}],
	 "temperature": 0.2,
	 "max_tokens": 256,
	 "tools": [{"type": "function", "function": {"name": "move", "description": "Move the base.",
	   "parameters": {"type":"object","properties":{"x":{"type":"number"}},"required":["x"]}}}]}`)
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// A tool result goes back as a tool message; its image follows in a user
// message after all the tool messages of the turn (OpenAI tool messages carry
// no images); the assistant message keeps its text and every call, the
// malformed one as the model wrote it; reasoning is not re-sent.
func TestToolResultSentBack(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(200, `{"choices":[{"message":{"role":"assistant","content":"Done: in the kitchen.","reasoning_content":"The map says so."},"finish_reason":"stop"}],
	 "usage":{"prompt_tokens":1200,"completion_tokens":9}}`))
	m, err := build(testConfig(t, f), wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	req := firstRequest()
	req.Messages[1].Parts = req.Messages[1].Parts[:1]
	req.Messages = append(req.Messages,
		model.Message{Role: model.RoleAssistant, Parts: []model.Part{{Text: "Moving."}}, ToolCalls: []model.ToolCall{
			{ID: "call_1", Name: "move", Arguments: json.RawMessage(`{"x":1.5}`)},
			{ID: "call_2", Name: "move", Arguments: model.ArgumentsFromText(`{"x": 2`)}}},
		model.Message{Role: model.RoleTool, ToolCallID: "call_1", Name: "move", Parts: []model.Part{
			{Text: `{"ok":true}`}, {Image: &world.Image{Camera: "wrist", MIME: "image/png", Data: png}}}},
		model.Message{Role: model.RoleTool, ToolCallID: "call_2", Name: "move", Parts: []model.Part{{Text: `{"ok":false,"error":"not executed: one call per turn"}`}}},
		model.Message{Role: model.RoleUser, Parts: []model.Part{{Text: "Observation: kitchen."}}, CacheBreakpoint: true},
	)
	resp, err := m.Generate(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "Done: in the kitchen." || resp.Reasoning != "The map says so." || len(resp.ToolCalls) != 0 ||
		resp.Usage != (model.Usage{InputTokens: 1200, OutputTokens: 9}) {
		t.Fatalf("response %+v", resp)
	}
	msgs, _ := json.Marshal(wiretest.Field(t, f.Requests()[0].Body, "messages"))
	wiretest.EqualJSON(t, msgs, `[
	 {"role": "system", "content": "You drive a robot."},
	 {"role": "user", "content": "Go to the kitchen."},
	 {"role": "assistant", "content": "Moving.", "tool_calls": [
	   {"id": "call_1", "type": "function", "function": {"name": "move", "arguments": "{\"x\":1.5}"}},
	   {"id": "call_2", "type": "function", "function": {"name": "move", "arguments": "{\"x\": 2"}}]},
	 {"role": "tool", "tool_call_id": "call_1", "content": "{\"ok\":true}"},
	 {"role": "tool", "tool_call_id": "call_2", "content": "{\"ok\":false,\"error\":\"not executed: one call per turn\"}"},
	 {"role": "user", "content": [
	   {"type": "text", "text": "Image(s) returned by the move call call_1:"},
	   {"type": "text", "text": "Camera \"wrist\":"},
	   {"type": "image_url", "image_url": {"url": "`+pngURL+`"}}]},
	 {"role": "user", "content": "Observation: kitchen."}]`)
}

// Several calls in one response all come back, in order, with their ids; a
// malformed argument text is handed on as a JSON string, never a crash.
func TestSeveralAndMalformedToolCalls(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(200, `{"choices":[{"message":{"role":"assistant","content":null,"tool_calls":[
	 {"id":"a","type":"function","function":{"name":"move","arguments":"{\"x\":1}"}},
	 {"id":"b","type":"function","function":{"name":"grasp","arguments":"{\"object\": \"cup"}},
	 {"id":"c","type":"function","function":{"name":"look","arguments":""}}]},"finish_reason":"tool_calls"}]}`))
	m, err := build(testConfig(t, f), wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := m.Generate(t.Context(), firstRequest())
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(resp.ToolCalls)
	if want := `[{"id":"a","name":"move","arguments":{"x":1}},{"id":"b","name":"grasp","arguments":"{\"object\": \"cup"},{"id":"c","name":"look","arguments":{}}]`; string(got) != want {
		t.Fatalf("tool calls %s\nwant %s", got, want)
	}
	if raw := resp.ToolCalls[1].RawArguments(); raw != `{"object": "cup` {
		t.Fatalf("raw arguments %q", raw)
	}
}

// 429 with Retry-After, then success: the injected sleep waits exactly what
// the server asked, and the same body is sent again.
func TestRateLimitThenSuccess(t *testing.T) {
	limited := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "7")
		wiretest.Reply(429, `{"error":{"message":"Rate limit reached for gpt-test","type":"requests"}}`)(w, r)
	}
	f := wiretest.New(t, limited, wiretest.Reply(200, toolCallReply))
	s := &wiretest.Sleeps{}
	m, err := build(testConfig(t, f), wiretest.Options(s))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := m.Generate(t.Context(), firstRequest())
	if err != nil || len(resp.ToolCalls) != 1 {
		t.Fatalf("resp %+v, err %v", resp, err)
	}
	reqs := f.Requests()
	if len(reqs) != 2 || string(reqs[0].Body) != string(reqs[1].Body) {
		t.Fatalf("%d requests, bodies equal: %v", len(reqs), len(reqs) == 2 && string(reqs[0].Body) == string(reqs[1].Body))
	}
	if len(s.Got()) != 1 || s.Got()[0] != 7*time.Second {
		t.Fatalf("slept %v, want [7s]", s.Got())
	}
}

// 500 on every attempt: retries+1 attempts with growing backoff, then an
// error naming the provider, the status and the provider's message.
func TestServerErrorUntilRetriesRunOut(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(500, `{"error":{"message":"The server had an error while processing your request","type":"server_error"}}`))
	s := &wiretest.Sleeps{}
	m, err := build(testConfig(t, f), wiretest.Options(s))
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Generate(t.Context(), firstRequest())
	want := "openai: HTTP 500: The server had an error while processing your request (server_error) (after 3 attempts)"
	if err == nil || err.Error() != want {
		t.Fatalf("err %v\nwant %s", err, want)
	}
	var ce *call.Error
	if !errors.As(err, &ce) || ce.Status != 500 || len(f.Requests()) != 3 {
		t.Fatalf("call error %+v, %d requests", ce, len(f.Requests()))
	}
	if len(s.Got()) != 2 || s.Got()[0] < 250*time.Millisecond || s.Got()[0] >= 500*time.Millisecond ||
		s.Got()[1] < 500*time.Millisecond || s.Got()[1] >= time.Second {
		t.Fatalf("backoff %v, want one in [250ms,500ms) then one in [500ms,1s)", s.Got())
	}
}

// An answer slower than the timeout: each attempt is aborted (the server
// sees the cancel), retried, and the call ends with a timeout error.
func TestSlowAnswerPastTimeout(t *testing.T) {
	arrived, cancelled := make(chan struct{}, 4), make(chan struct{}, 4)
	f := wiretest.New(t, wiretest.Hang(arrived, cancelled))
	cfg := testConfig(t, f)
	timeout := testtime.Scale(30 * time.Millisecond) // each attempt reaches the server on a loaded machine
	cfg.Timeout, cfg.Retries = schema.Duration(timeout), 1
	m, err := build(cfg, wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Generate(t.Context(), firstRequest())
	if err == nil || err.Error() != fmt.Sprintf("openai: no answer within %s (after 2 attempts)", timeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
	wiretest.WaitCancelled(t, arrived, cancelled, 2)
}

// Cancelling the caller's context mid-request aborts the request at once,
// without retries, and the error is the cancellation.
func TestCancellationMidRequest(t *testing.T) {
	arrived, cancelled := make(chan struct{}, 2), make(chan struct{}, 2)
	f := wiretest.New(t, wiretest.Hang(arrived, cancelled))
	s := &wiretest.Sleeps{}
	cfg := testConfig(t, f)
	cfg.Timeout = schema.Duration(time.Minute) // only the cancel can end it
	m, err := build(cfg, wiretest.Options(s))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		_, err := m.Generate(ctx, firstRequest())
		done <- err
	}()
	<-arrived
	cancel()
	wiretest.WaitCancelled(t, nil, cancelled, 1)
	if err := <-done; !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "openai: ") {
		t.Fatalf("err %v", err)
	}
	if n := len(f.Requests()); n != 1 || len(s.Got()) != 0 {
		t.Fatalf("%d requests, sleeps %v: a cancelled call must not retry", n, s.Got())
	}
}

// The key travels only in the Authorization header; OPENAI_* variables and
// the organisation never leak into the request.
func TestKeyOnlyInHeaderAndNoEnvLeak(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1")
	t.Setenv("OPENAI_API_BASE", "http://127.0.0.1:1/v1")
	t.Setenv("OPENAI_MODEL", "env-model")
	t.Setenv("OPENAI_ORGANIZATION", "org-env")
	f := wiretest.New(t, wiretest.Reply(200, toolCallReply))
	m, err := build(testConfig(t, f), wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Generate(t.Context(), firstRequest()); err != nil {
		t.Fatal(err)
	}
	r := f.Requests()[0]
	if got := r.Header.Get("Authorization"); got != "Bearer sk-test-secret" {
		t.Fatalf("Authorization %q", got)
	}
	if r.Header.Get("OpenAI-Organization") != "" {
		t.Fatal("OPENAI_ORGANIZATION leaked into the request")
	}
	for _, s := range []string{"sk-test-secret", "sk-from-env", "env-model"} {
		if strings.Contains(string(r.Body), s) {
			t.Fatalf("%q in the request body", s)
		}
	}
	// A server at base_url without api_key_env sends no key at all, even
	// with OPENAI_API_KEY set.
	cfg := testConfig(t, f)
	cfg.APIKeyEnv = ""
	m, err = build(cfg, wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Generate(t.Context(), firstRequest()); err != nil {
		t.Fatal(err)
	}
	if got := f.Requests()[1].Header.Get("Authorization"); got != "" {
		t.Fatalf("keyless server got Authorization %q", got)
	}
}

// testConfig is an OpenAI-compatible server at the fake, keyed by
// THEA_TEST_KEY.
func testConfig(t *testing.T, f *wiretest.Server) section {
	t.Setenv("THEA_TEST_KEY", "sk-test-secret")
	return section{Model: schema.Model{Provider: "openai", Timeout: schema.Duration(testtime.Scale(5 * time.Second)), Retries: 2}, Config: Config{Endpoint: call.Endpoint{Name: "gpt-test", BaseURL: f.URL + "/v1", APIKeyEnv: "THEA_TEST_KEY", Temperature: new(0.2), MaxTokens: 256}}}
}

// Reasoning under either name (reasoning_content: DeepSeek, older vLLM;
// reasoning: newer vLLM, Ollama) reaches Response.Reasoning.
func TestReasoningAlias(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(200, `{"choices":[{"message":{"role":"assistant","content":"ok","reasoning":"thought \"hard\""}}]}`))
	m, err := build(testConfig(t, f), wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := m.Generate(t.Context(), firstRequest())
	if err != nil || resp.Text != "ok" || resp.Reasoning != `thought "hard"` {
		t.Fatalf("resp %+v, err %v", resp, err)
	}
}

// An answer cut off at max_tokens without a tool call is an error that says
// so, not an empty final answer.
func TestCutOffAtMaxTokens(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(200, `{"choices":[{"message":{"role":"assistant","content":""},"finish_reason":"length"}]}`))
	m, err := build(testConfig(t, f), wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Generate(t.Context(), firstRequest())
	if want := "openai: the answer was cut off at max_tokens (256) before it finished; raise model.max_tokens"; err == nil || err.Error() != want {
		t.Fatalf("err %v", err)
	}
}
