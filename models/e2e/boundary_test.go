package e2e_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/model/call"
	"github.com/thea-harness/thea/livecheck"
	"github.com/thea-harness/thea/models/internal/wiretest"
	"github.com/thea-harness/thea/models/openai"
	"github.com/thea-harness/thea/models/replay"
	"github.com/thea-harness/thea/operator/trace"
	"github.com/thea-harness/thea/report"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// serveArm is an MCP server over stdio whose tools are named the way some
// real servers name theirs, with a dot: arm.status and arm.home (and, with
// --collide, arm_status too). It runs in a subprocess: the test binary with
// "arm-mcp" as its first argument.
func serveArm(args []string) int {
	s := mcpserver.NewMCPServer("arm", "1.0.0", mcpserver.WithRecovery())
	ok := func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(`{"joints":"homed","gripper":"open"}`), nil
	}
	s.AddTool(mcp.NewTool("arm.status", mcp.WithDescription("The arm's joint and gripper state.")), ok)
	s.AddTool(mcp.NewTool("arm.home", mcp.WithDescription("Move the arm to its home pose.")), ok)
	if len(args) > 0 && args[0] == "--collide" {
		s.AddTool(mcp.NewTool("arm_status", mcp.WithDescription("The same, under another name.")), ok)
	}
	if err := mcpserver.ServeStdio(s); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// armSpec writes a spec whose toolset is serveArm, its model (OpenAI's
// wire) at url.
func armSpec(t *testing.T, url string, serverArgs ...string) *schema.Spec {
	t.Helper()
	return armSpecFor(t, "openai", url, serverArgs...)
}

func armSpecFor(t *testing.T, provider, url string, serverArgs ...string) *schema.Spec {
	t.Helper()
	dir := t.TempDir()
	cmd, _ := json.Marshal(append([]string{"thea", "arm-mcp"}, serverArgs...))
	src := fmt.Sprintf(`name: arm-e2e
model: {provider: %s, name: e2e-model, base_url: %q, api_key_env: THEA_E2E_KEY, timeout: 20s, retries: 3}
embodiment:
  name: arm-e2e
  limits: {max_translation_m: 1, max_rotation_deg: 90, min_clearance_m: 0.3, safety_margin_m: 0.1, reach_m: 0.8, max_speed_mps: 0.5, payload_kg: 1}
toolsets:
  arm: {kind: mcp, command: %s, timeout: 10s}
memory: {dir: .thea/memory, consolidation: {enabled: false}}
loop: {stages: [task_notes]}
`, provider, url+"/v1", cmd)
	path := filepath.Join(dir, "spec.yaml")
	must(t, os.WriteFile(path, []byte(src), 0o644))
	c, err := components.Default(components.Options{})
	must(t, err)
	spec, diags := schema.Load([]string{path}, schema.LoadOptions{Descriptors: c.Descriptors()})
	if spec == nil || len(diags) > 0 {
		t.Fatalf("arm spec: %v", diags)
	}
	t.Setenv("THEA_E2E_KEY", key)
	return spec
}

func armHarness(t *testing.T, spec *schema.Spec, runs string) (*engine.Harness, error) {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	opts, err := components.Session(components.Options{Logger: logger})
	must(t, err)
	opts.RunLogDir = runs
	h, err := engine.New(t.Context(), spec, opts)
	if err == nil {
		t.Cleanup(func() { _ = h.Close() })
	}
	return h, err
}

// armModel answers the first decision with a call of arm_status (the alias
// it was offered) and the second with the report.
func armModel() http.HandlerFunc {
	var n atomic.Int32
	return func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			wiretest.Reply(200, `{"choices":[{"message":{"role":"assistant","content":"Checking the arm.","tool_calls":[
			 {"id":"call_1","type":"function","function":{"name":"arm_status","arguments":"{}"}}]},"finish_reason":"tool_calls"}],
			 "usage":{"prompt_tokens":300,"completion_tokens":12}}`)(w, r)
			return
		}
		wiretest.Reply(200, `{"choices":[{"message":{"role":"assistant","content":"Done: the arm is homed."},"finish_reason":"stop"}],
		 "usage":{"prompt_tokens":340,"completion_tokens":8}}`)(w, r)
	}
}

// runEvents reads the one run's events.jsonl under runs.
func runEvents(t *testing.T, runs string) []runlog.Event {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(runs, "*", "events.jsonl"))
	must(t, err)
	if len(files) != 1 {
		t.Fatalf("run logs %v, want one", files)
	}
	b, err := os.ReadFile(files[0])
	must(t, err)
	var evs []runlog.Event
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var ev runlog.Event
		must(t, json.Unmarshal(sc.Bytes(), &ev))
		evs = append(evs, ev)
	}
	return evs
}

// An MCP tool named arm.status, through the real engine and a real MCP
// subprocess, against a server as strict as OpenAI's: the model is offered
// arm_status, its call of arm_status runs arm.status, and the run log's
// model_call records both names. Before, the first decision failed with
// HTTP 400 (tools[0].function.name).
func TestAliasedToolOverTheWire(t *testing.T) {
	f := wiretest.New(t, wiretest.StrictOpenAI(wiretest.OpenAIRules{}, armModel()))
	spec := armSpec(t, f.URL)
	runs := t.TempDir()
	h, err := armHarness(t, spec, runs)
	must(t, err)
	rep, err := h.Run(t.Context(), "Is the arm homed?")
	if err != nil || rep.Reason != runlog.DoneFinal {
		t.Fatalf("report %+v, err %v", rep, err)
	}
	var recorded, executed bool
	for _, ev := range runEvents(t, runs) {
		if mc := ev.ModelCall; ev.Kind == runlog.EventModelCall && mc != nil && len(mc.ToolCalls) > 0 {
			c := mc.ToolCalls[0]
			recorded = c.Name == "arm.status" && c.WireName == "arm_status"
		}
		if ev.Kind == runlog.EventToolResult && ev.Tool == "arm.status" && ev.Result != nil && ev.Result.Success {
			executed = true
		}
	}
	if !recorded || !executed {
		t.Fatalf("run log: both names recorded %v, arm.status executed %v", recorded, executed)
	}
	second := string(f.Requests()[1].Body)
	if !strings.Contains(second, `"name":"arm_status"`) || !strings.Contains(second, `"tool_call_id":"call_1"`) {
		t.Fatalf("the second request lacks the aliased call and its result:\n%s", second)
	}
}

// Two tools that would reach the model under one name stop the session at
// start, naming both.
func TestAliasCollisionAtStart(t *testing.T) {
	spec := armSpec(t, "http://127.0.0.1:1", "--collide")
	_, err := armHarness(t, spec, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), `tools "arm.status" and "arm_status" would both reach the model as "arm_status"`) {
		t.Fatalf("err %v", err)
	}
}

// thea validate --live lists each aliased tool at its toolset, and reports
// a collision as an error there.
func TestLiveCheckListsAliases(t *testing.T) {
	c, err := components.Default(components.Options{})
	must(t, err)
	spec := armSpec(t, "http://127.0.0.1:1")
	diags := livecheck.Check(t.Context(), spec, c, livecheck.Options{})
	var got []string
	for _, d := range diags {
		got = append(got, d.String())
	}
	want := []string{
		`warning: toolsets.arm: the tool "arm.home" is offered to the model as "arm_home"`,
		`warning: toolsets.arm: the tool "arm.status" is offered to the model as "arm_status"`,
	}
	if len(got) != 2 || !strings.Contains(got[0], want[0]) || !strings.Contains(got[1], want[1]) {
		t.Fatalf("diagnostics:\n%s", strings.Join(got, "\n"))
	}
	spec = armSpec(t, "http://127.0.0.1:1", "--collide")
	diags = livecheck.Check(t.Context(), spec, c, livecheck.Options{})
	if len(diags) != 1 || diags[0].Warning || !strings.Contains(diags[0].String(), `toolsets.arm: tools "arm.status" and "arm_status" would both reach the model`) {
		t.Fatalf("diagnostics %v", diags)
	}
}

// A 429 then two 500s, retried and recovered: three model_retry events in
// events.jsonl (attempt, status, wait, the provider's message) before the
// call's model_call; --verbose shows them; the report has a row for each.
func TestRetriesOnTheRecord(t *testing.T) {
	fail := func(status int, msg string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After-Ms", "3")
			wiretest.Reply(status, `{"error":{"message":"`+msg+`","type":"e2e"}}`)(w, r)
		}
	}
	next := armModel()
	f := wiretest.New(t, fail(429, "Rate limit reached"), fail(500, "Server error one"), fail(500, "Server error two"), next)
	spec := armSpec(t, f.URL)
	runs := t.TempDir()
	h, err := armHarness(t, spec, runs)
	must(t, err)
	if rep, err := h.Run(t.Context(), "Is the arm homed?"); err != nil || rep.Reason != runlog.DoneFinal {
		t.Fatalf("report %+v, err %v", rep, err)
	}
	evs := runEvents(t, runs)
	var retries []model.Retry
	modelCallAt, lastRetryAt := -1, -1
	for i, ev := range evs {
		switch ev.Kind {
		case runlog.EventModelRetry:
			retries = append(retries, *ev.Retry)
			lastRetryAt = i
		case runlog.EventModelCall:
			if modelCallAt < 0 {
				modelCallAt = i
			}
		}
	}
	want := []model.Retry{
		{Provider: "openai", Purpose: model.PurposeDecide, Attempt: 1, Status: 429, WaitMS: 3, RetryAfter: true, Message: "Rate limit reached (e2e)"},
		{Provider: "openai", Purpose: model.PurposeDecide, Attempt: 2, Status: 500, WaitMS: 3, RetryAfter: true, Message: "Server error one (e2e)"},
		{Provider: "openai", Purpose: model.PurposeDecide, Attempt: 3, Status: 500, WaitMS: 3, RetryAfter: true, Message: "Server error two (e2e)"},
	}
	if len(retries) != 3 || lastRetryAt > modelCallAt {
		t.Fatalf("retries %+v (last at %d, model_call at %d)", retries, lastRetryAt, modelCallAt)
	}
	for i := range want {
		if retries[i] != want[i] {
			t.Errorf("retry %d: %+v, want %+v", i+1, retries[i], want[i])
		}
	}
	var out bytes.Buffer
	w := trace.New(&out, true)
	for _, ev := range evs {
		must(t, w.Write(ev))
	}
	if !strings.Contains(out.String(), "turn 1   retry      openai attempt 2 failed: HTTP 500: Server error one (e2e); retrying in 3ms (the server's Retry-After)") {
		t.Fatalf("verbose trace:\n%s", out.String())
	}
	run, err := report.Load(t.Context(), filepath.Dir(mustGlob(t, filepath.Join(runs, "*", "events.jsonl"))))
	must(t, err)
	var page bytes.Buffer
	must(t, report.Render(&page, report.Build(run)))
	if n := strings.Count(page.String(), "model call retried"); n != 3 {
		t.Fatalf("the report has %d retry rows, want 3", n)
	}
}

func mustGlob(t *testing.T, pattern string) string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil || len(m) != 1 {
		t.Fatalf("glob %s: %v %v", pattern, m, err)
	}
	return m[0]
}

// Gemini 3 through the household episode: every decision's signature comes
// back on its call in every later request, for the whole history (the
// server is as strict as Google's, so the episode only ends if they do), the
// run log keeps them, and a replay of the run log gives them back.
func TestGemini3SignaturesOverTheWire(t *testing.T) {
	g := wiretest.NewGemini3()
	var srv *server
	hs := httptest.NewServer(g.Handler(func(w http.ResponseWriter, r *http.Request) { srv.ServeHTTP(w, r) }))
	t.Cleanup(hs.Close)
	spec, brain := household(t)
	srv = &server{t: t, wire: openaiWire(), brain: brain}
	spec.Model = schema.Model{Provider: "google", Timeout: spec.Model.Timeout, Retries: 1, Config: openai.Config{Endpoint: call.Endpoint{
		Name: "gemini-3-pro-preview", BaseURL: hs.URL + "/v1", APIKeyEnv: "THEA_E2E_KEY", MaxTokens: 1024}}}
	t.Setenv("THEA_E2E_KEY", key)
	runs := t.TempDir()
	h := newHarness(t, spec, runs)
	rep, err := h.Run(t.Context(), "Put the mug in the top drawer")
	if err != nil || rep.Reason != runlog.DoneFinal {
		t.Fatalf("report %+v, err %v", rep, err)
	}
	if g.Issued() < 9 {
		t.Fatalf("%d signatures issued, want one for each of the episode's 9 tool calls", g.Issued())
	}
	signed := 0
	for _, ev := range runEvents(t, runs) {
		if mc := ev.ModelCall; ev.Kind == runlog.EventModelCall && mc != nil {
			for _, c := range mc.ToolCalls {
				if strings.Contains(string(c.Extra), `"thought_signature"`) {
					signed++
				}
			}
		}
	}
	if signed != g.Issued() {
		t.Fatalf("the run log holds %d signed calls, the server signed %d", signed, g.Issued())
	}
	ep, err := replay.Load(t.Context(), mustGlob(t, filepath.Join(runs, "*", "events.jsonl")))
	must(t, err)
	replayed := 0
	for _, c := range ep.Calls {
		for _, tc := range c.Response().ToolCalls {
			if len(tc.Extra) > 0 {
				replayed++
			}
		}
	}
	if replayed != signed {
		t.Fatalf("a replay gives back %d signatures, want %d", replayed, signed)
	}
}

// A failed call (here one the model made to a tool that does not exist)
// goes back to Anthropic as a tool_result marked is_error, its envelope
// text unchanged; the successful one carries no flag. On OpenAI's wire the
// envelope's "success":false says the same (tool messages have no flag).
func TestFailedResultIsErrorOverTheWire(t *testing.T) {
	var n atomic.Int32
	reply := func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) {
		case 1:
			wiretest.Reply(200, `{"type":"message","role":"assistant","content":[
			 {"type":"tool_use","id":"toolu_1","name":"arm_reset","input":{}}],"stop_reason":"tool_use","usage":{"input_tokens":50,"output_tokens":5}}`)(w, r)
		case 2:
			wiretest.Reply(200, `{"type":"message","role":"assistant","content":[
			 {"type":"tool_use","id":"toolu_2","name":"arm_status","input":{}}],"stop_reason":"tool_use","usage":{"input_tokens":60,"output_tokens":5}}`)(w, r)
		default:
			wiretest.Reply(200, `{"type":"message","role":"assistant","content":[{"type":"text","text":"Done."}],
			 "stop_reason":"end_turn","usage":{"input_tokens":70,"output_tokens":2}}`)(w, r)
		}
	}
	f := wiretest.New(t, wiretest.StrictAnthropic(reply))
	spec := armSpecFor(t, "anthropic", f.URL)
	h, err := armHarness(t, spec, t.TempDir())
	must(t, err)
	if rep, err := h.Run(t.Context(), "Is the arm homed?"); err != nil || rep.Reason != runlog.DoneFinal {
		t.Fatalf("report %+v, err %v", rep, err)
	}
	var last struct {
		Messages []struct {
			Content []struct {
				Type      string          `json:"type"`
				ToolUseID string          `json:"tool_use_id"`
				IsError   *bool           `json:"is_error"`
				Content   json.RawMessage `json:"content"`
			} `json:"content"`
		} `json:"messages"`
	}
	reqs := f.Requests()
	must(t, json.Unmarshal(reqs[len(reqs)-1].Body, &last))
	flags := map[string]*bool{}
	for _, m := range last.Messages {
		for _, b := range m.Content {
			if b.Type == "tool_result" {
				flags[b.ToolUseID] = b.IsError
				if (b.IsError != nil) != strings.Contains(string(b.Content), `\"success\":false`) {
					t.Errorf("tool_result %s: is_error %v, content %s", b.ToolUseID, b.IsError, b.Content)
				}
			}
		}
	}
	if len(flags) != 2 || flags["toolu_1"] == nil || !*flags["toolu_1"] || flags["toolu_2"] != nil {
		t.Fatalf("is_error by call %v", flags)
	}
}
