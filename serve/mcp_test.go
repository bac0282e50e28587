package serve

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thea-harness/thea/mcpserve"
	"github.com/thea-harness/thea/runlog"
)

// startMCP serves specYAML's session with the MCP face at /mcp, as thea
// serve --mcp does: one lease shared by the face and the task API.
func startMCP(t *testing.T, turns string, cfg Config) *fixture {
	t.Helper()
	opts := sessionOptions(t)
	loaded := loadSpec(t, specYAML, turns, opts)
	lease := mcpserve.NewLease(0, nil)
	safety := &mcpserve.Safety{Lease: lease, Confirm: mcpserve.NewConfirmations(nil, nil)}
	d := mcpserve.NewDecider()
	opts.Decider, opts.WrapUser = d, safety.Confirm.Over
	// The server is built before the face: its user channel goes to the
	// session, and the face's handler to the server's config.
	var mcpHandler http.Handler // set before serving
	cfg.Gate = lease
	cfg.MCP = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { mcpHandler.ServeHTTP(w, r) })
	srv, h := newSession(t, loaded, opts, cfg)
	face, err := mcpserve.New(t.Context(), h, d, mcpserve.Options{Idle: -1, Safety: safety})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = face.Close() })
	mcpHandler = mcpserve.HTTPHandler(face.MCP(), 0)
	return serveSession(t, srv, h, cfg)
}

// bearer adds the token to every request of the MCP client.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func (f *fixture) dialMCP(name string) *sdk.ClientSession {
	f.t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: name, Version: "2.0"}, nil)
	cs, err := c.Connect(f.t.Context(), &sdk.StreamableClientTransport{Endpoint: f.base + MCPPath,
		HTTPClient: &http.Client{Transport: bearer{f.token}}}, nil)
	if err != nil {
		f.t.Fatalf("connecting to %s: %v", MCPPath, err)
	}
	f.t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func callMCP(t *testing.T, cs *sdk.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// /mcp is behind the token like the API; with it, an MCP client sees the
// robot's tools.
func TestMCPBehindToken(t *testing.T) {
	f := startMCP(t, "- text: unused\n", Config{Token: "0123456789abcdef-mcp"})
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, f.base+MCPPath,
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("/mcp without the token: %d, want 401", resp.StatusCode)
	}
	res, err := f.dialMCP("with-token").ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	for _, want := range []string{"query_user", mcpserve.ToolBeginTask, mcpserve.ToolObserve} {
		if !strings.Contains(strings.Join(names, " "), want) {
			t.Errorf("tools %v lack %s", names, want)
		}
	}
}

// The task API and an MCP client share one session and never run a task
// at once: each is refused, told who holds the robot; the API's tasks are
// still decided by the spec's model.
func TestMCPAndTaskAPIShareTheBody(t *testing.T) {
	f := startMCP(t, "- text: Done by the spec's model.\n- tool_calls: [{name: query_user, arguments: {question: \"Which mug?\"}}]\n", Config{})
	cs := f.dialMCP("desk-agent")
	if text, isErr := callMCP(t, cs, mcpserve.ToolBeginTask, map[string]any{"instruction": "tidy"}); isErr {
		t.Fatalf("begin_task: %s", text)
	}
	var refused apiError
	if code := f.do("POST", "/v1/tasks", map[string]string{"instruction": "fetch"}, &refused); code != http.StatusConflict ||
		!strings.Contains(refused.Error, `MCP client "desk-agent" 2.0 (session `) || !strings.Contains(refused.Error, "end_task") {
		t.Fatalf("a task over HTTP while an MCP client holds the body: %d %q", code, refused.Error)
	}
	if text, isErr := callMCP(t, cs, mcpserve.ToolEndTask, map[string]any{"summary": "done"}); isErr {
		t.Fatalf("end_task: %s", text)
	}

	id := f.submit("fetch")
	done := f.events(id, "").until("done")
	var rep runlog.Report
	if err := json.Unmarshal(done[len(done)-1].data, &struct {
		Done *runlog.Report `json:"done"`
	}{&rep}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(done[len(done)-1].data), "Done by the spec's model.") {
		t.Fatalf("the API's task was not decided by the spec's model: %s", done[len(done)-1].data)
	}

	id = f.submit("ask")
	f.events(id, "").until("pending")
	text, isErr := callMCP(t, cs, mcpserve.ToolBeginTask, map[string]any{"instruction": "tidy"})
	if !isErr || !strings.Contains(text, "thea serve's task API (session task 2)") {
		t.Fatalf("begin_task while an API task runs: %q (error %v)", text, isErr)
	}
}
