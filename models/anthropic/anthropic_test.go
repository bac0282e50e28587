package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/model/call"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/models/internal/wiretest"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

var png = []byte("\x89PNG\r\n\x1a\nfake")

const pngBlock = `{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgpmYWtl"}}`

func testConfig(t *testing.T, f *wiretest.Server) section {
	t.Setenv("THEA_TEST_KEY", "sk-ant-test-secret")
	return section{Model: schema.Model{Provider: "anthropic", Timeout: schema.Duration(testtime.Scale(5 * time.Second)), Retries: 2}, Config: Config{Endpoint: call.Endpoint{Name: "claude-test", BaseURL: f.URL + "/v1", APIKeyEnv: "THEA_TEST_KEY", Temperature: new(0.2), MaxTokens: 256}}}
}

func newModel(t *testing.T, f *wiretest.Server, s *wiretest.Sleeps) *Model {
	t.Helper()
	m, err := build(testConfig(t, f), wiretest.Options(s))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func firstRequest() model.Request {
	return model.Request{Purpose: model.PurposeDecide,
		Tools: []model.ToolDef{{Name: "move", Description: "Move the base.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"number"}},"required":["x"]}`)}},
		Messages: []model.Message{
			{Role: model.RoleSystem, Parts: []model.Part{{Text: "You drive a robot."}}, CacheBreakpoint: true},
			{Role: model.RoleUser, Parts: []model.Part{{Text: "Go to the kitchen."}, {Image: &world.Image{Camera: "front", MIME: "image/png", Data: png}}}},
		}}
}

const toolCallReply = `{"id":"msg_1","type":"message","role":"assistant","model":"claude-test",
 "content":[{"type":"text","text":"Moving."},{"type":"tool_use","id":"toolu_1","name":"move","input":{"x": 1.50}}],
 "stop_reason":"tool_use","usage":{"input_tokens":100,"cache_creation_input_tokens":50,"cache_read_input_tokens":800,"output_tokens":20}}`

// The first request: the system prompt as a block with cache_control, the
// image as a base64 image block, tools with their schema, every setting;
// text and tool call both come back, the input exactly as sent, and usage
// counts the whole prompt (uncached + cache read + cache write).
func TestToolCallAndImage(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(200, toolCallReply))
	resp, err := newModel(t, f, &wiretest.Sleeps{}).Generate(t.Context(), firstRequest())
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(resp)
	if want := `{"text":"Moving.","tool_calls":[{"id":"toolu_1","name":"move","arguments":{"x":1.50}}],"usage":{"input_tokens":950,"cached_input_tokens":800,"output_tokens":20}}`; string(got) != want {
		t.Fatalf("response %s\nwant     %s", got, want)
	}
	if args := string(resp.ToolCalls[0].Arguments); args != `{"x": 1.50}` {
		t.Fatalf("arguments %s, want the input bytes as sent", args)
	}
	r := f.Requests()[0]
	if r.Path != "/v1/messages" {
		t.Fatalf("path %s", r.Path)
	}
	wiretest.EqualJSON(t, r.Body, `{
	 "model": "claude-test", "max_tokens": 256, "temperature": 0.2,
	 "system": [{"type": "text", "text": "You drive a robot.", "cache_control": {"type": "ephemeral"}}],
	 "messages": [{"role": "user", "content": [{"type": "text", "text": "Go to the kitchen."}, `+pngBlock+`]}],
	 "tools": [{"name": "move", "description": "Move the base.",
	   "input_schema": {"type":"object","properties":{"x":{"type":"number"}},"required":["x"]}}]}`)
}

// Tool results go back as tool_result blocks with their images inside, all
// in the one user turn after the assistant (with the refreshed text); the
// assistant turn keeps its text and every tool_use (a malformed input as
// {}); the marked last accumulated message gets cache_control on its last
// block. Thinking comes back as Reasoning and is not re-sent.
func TestToolResultSentBack(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(200, `{"type":"message","role":"assistant","content":[
	 {"type":"thinking","thinking":"The map says kitchen.","signature":"sig"},
	 {"type":"text","text":"Done: in the kitchen."}],"stop_reason":"end_turn","usage":{"input_tokens":12,"output_tokens":9}}`))
	req := firstRequest()
	req.Messages[1].Parts = req.Messages[1].Parts[:1]
	req.Messages = append(req.Messages,
		model.Message{Role: model.RoleAssistant, Parts: []model.Part{{Text: "Moving."}}, ToolCalls: []model.ToolCall{
			{ID: "call_1", Name: "move", Arguments: json.RawMessage(`{"x":1.5}`)},
			{ID: "call_2", Name: "move", Arguments: model.ArgumentsFromText(`{"x": 2`)}}},
		model.Message{Role: model.RoleTool, ToolCallID: "call_1", Name: "move", Parts: []model.Part{
			{Text: `{"ok":true}`}, {Image: &world.Image{Camera: "wrist", MIME: "image/png", Data: png}}}},
		model.Message{Role: model.RoleTool, ToolCallID: "call_2", Name: "move", CacheBreakpoint: true,
			Parts: []model.Part{{Text: `{"ok":false,"error":"not executed: one call per turn"}`}}},
		model.Message{Role: model.RoleUser, Parts: []model.Part{{Text: "Observation: kitchen."}}},
	)
	resp, err := newModel(t, f, &wiretest.Sleeps{}).Generate(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "Done: in the kitchen." || resp.Reasoning != "The map says kitchen." || len(resp.ToolCalls) != 0 {
		t.Fatalf("response %+v", resp)
	}
	msgs, _ := json.Marshal(wiretest.Field(t, f.Requests()[0].Body, "messages"))
	wiretest.EqualJSON(t, msgs, `[
	 {"role": "user", "content": [{"type": "text", "text": "Go to the kitchen."}]},
	 {"role": "assistant", "content": [
	   {"type": "text", "text": "Moving."},
	   {"type": "tool_use", "id": "call_1", "name": "move", "input": {"x": 1.5}},
	   {"type": "tool_use", "id": "call_2", "name": "move", "input": {}}]},
	 {"role": "user", "content": [
	   {"type": "tool_result", "tool_use_id": "call_1", "content": [{"type": "text", "text": "{\"ok\":true}"}, {"type": "text", "text": "Camera \"wrist\":"}, `+pngBlock+`]},
	   {"type": "tool_result", "tool_use_id": "call_2", "content": [{"type": "text", "text": "{\"ok\":false,\"error\":\"not executed: one call per turn\"}"}],
	    "cache_control": {"type": "ephemeral"}},
	   {"type": "text", "text": "Observation: kitchen."}]}]`)
	if strings.Contains(string(f.Requests()[0].Body), "thinking") {
		t.Fatal("reasoning re-sent")
	}
}

// Several tool_use blocks all come back with their ids; an input that is not
// an object (a proxy passing the model's broken text) is handed on as text,
// and a block type langchaingo cannot decode is skipped, never a crash.
func TestSeveralAndMalformedToolCalls(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(200, `{"type":"message","role":"assistant","content":[
	 {"type":"redacted_thinking","data":"xyz"},
	 {"type":"tool_use","id":"a","name":"move","input":{"x":1}},
	 {"type":"tool_use","id":"b","name":"grasp","input":"{\"object\": \"cup"},
	 {"type":"tool_use","id":"c","name":"look","input":{}}],"usage":{"input_tokens":5,"output_tokens":5}}`))
	resp, err := newModel(t, f, &wiretest.Sleeps{}).Generate(t.Context(), firstRequest())
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(resp.ToolCalls)
	if want := `[{"id":"a","name":"move","arguments":{"x":1}},{"id":"b","name":"grasp","arguments":"{\"object\": \"cup"},{"id":"c","name":"look","arguments":{}}]`; string(got) != want {
		t.Fatalf("tool calls %s\nwant %s", got, want)
	}
}

// 429 with Retry-After (and 529 overloaded) are retried after exactly the
// delay asked.
func TestRateLimitThenSuccess(t *testing.T) {
	limited := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3")
		wiretest.Reply(429, `{"type":"error","error":{"type":"rate_limit_error","message":"Number of requests has exceeded your rate limit"}}`)(w, r)
	}
	f := wiretest.New(t, limited, wiretest.Reply(529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`), wiretest.Reply(200, toolCallReply))
	s := &wiretest.Sleeps{}
	resp, err := newModel(t, f, s).Generate(t.Context(), firstRequest())
	if err != nil || len(resp.ToolCalls) != 1 {
		t.Fatalf("resp %+v, err %v", resp, err)
	}
	reqs := f.Requests()
	if len(reqs) != 3 || string(reqs[0].Body) != string(reqs[2].Body) {
		t.Fatalf("%d requests", len(reqs))
	}
	if got := s.Got(); len(got) != 2 || got[0] != 3*time.Second || got[1] < 500*time.Millisecond || got[1] >= time.Second {
		t.Fatalf("slept %v, want [3s, backoff in [500ms,1s)]", got)
	}
}

func TestServerErrorUntilRetriesRunOut(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(500, `{"type":"error","error":{"type":"api_error","message":"Internal server error"}}`))
	_, err := newModel(t, f, &wiretest.Sleeps{}).Generate(t.Context(), firstRequest())
	if want := "anthropic: HTTP 500: Internal server error (api_error) (after 3 attempts)"; err == nil || err.Error() != want {
		t.Fatalf("err %v\nwant %s", err, want)
	}
	var ce *call.Error
	if !errors.As(err, &ce) || ce.Status != 500 || len(f.Requests()) != 3 {
		t.Fatalf("call error %+v, %d requests", ce, len(f.Requests()))
	}
}

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
	if err == nil || err.Error() != fmt.Sprintf("anthropic: no answer within %s (after 2 attempts)", timeout) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
	wiretest.WaitCancelled(t, arrived, cancelled, 2)
}

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
	if err := <-done; !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "anthropic: ") {
		t.Fatalf("err %v", err)
	}
	if n := len(f.Requests()); n != 1 || len(s.Got()) != 0 {
		t.Fatalf("%d requests, sleeps %v: a cancelled call must not retry", n, s.Got())
	}
}

// The key travels only in x-api-key; ANTHROPIC_API_KEY is never read.
func TestKeyOnlyInHeaderAndNoEnvLeak(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-from-env")
	f := wiretest.New(t, wiretest.Reply(200, toolCallReply))
	if _, err := newModel(t, f, &wiretest.Sleeps{}).Generate(t.Context(), firstRequest()); err != nil {
		t.Fatal(err)
	}
	r := f.Requests()[0]
	if r.Header.Get("X-Api-Key") != "sk-ant-test-secret" || r.Header.Get("Authorization") != "" || r.Header.Get("Anthropic-Version") != "2023-06-01" {
		t.Fatalf("headers %v", r.Header)
	}
	for _, s := range []string{"sk-ant-test-secret", "sk-ant-from-env"} {
		if strings.Contains(string(r.Body), s) {
			t.Fatalf("%q in the request body", s)
		}
	}
	// A proxy at base_url without api_key_env gets no key, even with
	// ANTHROPIC_API_KEY set.
	cfg := testConfig(t, f)
	cfg.APIKeyEnv = ""
	m, err := build(cfg, wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Generate(t.Context(), firstRequest()); err != nil {
		t.Fatal(err)
	}
	if got := f.Requests()[1].Header.Get("X-Api-Key"); got != "" {
		t.Fatalf("keyless proxy got x-api-key %q", got)
	}
	// The default base URL is the Messages API.
	t.Setenv("THEA_TEST_KEY", "k1")
	m, err = build(section{Model: schema.Model{Provider: "anthropic", Timeout: schema.Duration(testtime.Scale(5 * time.Second))}, Config: Config{Endpoint: call.Endpoint{Name: "claude-test", APIKeyEnv: "THEA_TEST_KEY", MaxTokens: 300}}}, call.Options{HTTP: f.Redirect()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Generate(t.Context(), firstRequest()); err != nil {
		t.Fatal(err)
	}
	r = f.Requests()[2]
	if r.Host != "api.anthropic.com" || r.Path != "/v1/messages" || wiretest.Field(t, r.Body, "max_tokens") != float64(300) {
		t.Fatalf("default request to %s%s, max_tokens %v", r.Host, r.Path, wiretest.Field(t, r.Body, "max_tokens"))
	}
}

func TestConstructionErrors(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-ant-from-env")
	t.Setenv("THEA_EMPTY", "")
	for _, tc := range []struct {
		cfg  section
		want string
	}{
		{section{Model: schema.Model{Provider: "anthropic"}, Config: Config{Endpoint: call.Endpoint{Name: "claude"}}}, "anthropic: model.api_key_env is required"},
		{section{Model: schema.Model{Provider: "anthropic"}, Config: Config{Endpoint: call.Endpoint{Name: "claude", APIKeyEnv: "THEA_EMPTY"}}}, "names THEA_EMPTY, but that environment variable is empty or unset"},
		{section{Model: schema.Model{Provider: "anthropic"}, Config: Config{Endpoint: call.Endpoint{APIKeyEnv: "ANTHROPIC_API_KEY"}}}, "anthropic: model.name is required"},
		{section{Model: schema.Model{Provider: "anthropic"}, Config: Config{Endpoint: call.Endpoint{Name: "claude", APIKeyEnv: "ANTHROPIC_API_KEY", Temperature: new(1.5)}}}, "temperature 1.5 is outside the API's range [0, 1]"},
	} {
		m, err := New(tc.cfg.Model, tc.cfg.Config)
		if err == nil || !strings.Contains(err.Error(), tc.want) || m != nil {
			t.Errorf("%+v: model %v, err %v, want %q", tc.cfg, m, err, tc.want)
		}
	}
}

// At most four cache breakpoints: the first (tools + system) and the latest.
func TestBreakpointLimit(t *testing.T) {
	msgs := []model.Message{{Role: model.RoleSystem, Parts: []model.Part{{Text: "s"}}, CacheBreakpoint: true}}
	for i := range 6 {
		role := model.RoleUser
		if i%2 == 1 {
			role = model.RoleAssistant
		}
		msgs = append(msgs, model.Message{Role: role, Parts: []model.Part{{Text: string(rune('a' + i))}}, CacheBreakpoint: true})
	}
	r, err := render(msgs, model.ToolNames{})
	if err != nil {
		t.Fatal(err)
	}
	var marked []string
	if r.system[0].CacheControl != nil {
		marked = append(marked, "system")
	}
	for _, m := range r.messages {
		for _, b := range m.Content {
			if b.CacheControl != nil {
				marked = append(marked, b.Text)
			}
		}
	}
	if got := strings.Join(marked, ","); got != "system,d,e,f" {
		t.Fatalf("breakpoints on %s, want system,d,e,f", got)
	}
}

func TestProvider(t *testing.T) {
	c := engine.NewComponents()
	if err := c.Add(Provider()); err != nil {
		t.Fatal(err)
	}
	t.Setenv("THEA_TEST_KEY", "k")
	if _, err := c.NewModel(section{Model: schema.Model{Provider: "anthropic", Timeout: schema.Duration(time.Minute)}, Config: Config{Endpoint: call.Endpoint{Name: "claude", APIKeyEnv: "THEA_TEST_KEY", MaxTokens: 64}}}.spec(), ""); err != nil {
		t.Fatal(err)
	}
}

func TestCutOffAtMaxTokens(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(200, `{"type":"message","role":"assistant","content":[{"type":"text","text":"I will first"}],"stop_reason":"max_tokens","usage":{"input_tokens":5,"output_tokens":256}}`))
	_, err := newModel(t, f, &wiretest.Sleeps{}).Generate(t.Context(), firstRequest())
	if want := "anthropic: the answer was cut off at max_tokens (256) before it finished; raise model.max_tokens"; err == nil || err.Error() != want {
		t.Fatalf("err %v", err)
	}
}
