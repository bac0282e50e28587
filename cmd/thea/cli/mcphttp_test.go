package cli_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/internal/testutil"
)

// bearerTransport sends the serve token with every request of an MCP client.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// dialMCPHTTP connects the official Go SDK's client to the /mcp endpoint
// at base over streamable HTTP, with the token.
func dialMCPHTTP(t *testing.T, base, token, name string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, opts)
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(30*time.Second))
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp",
		HTTPClient: &http.Client{Transport: bearerTransport{token}}}, nil)
	if err != nil {
		t.Fatalf("%s connecting to %s/mcp: %v", name, base, err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// An independent MCP client drives the household task over thea serve
// --mcp's streamable HTTP, behind the token: a confirm hook on
// open_drawer is asked of it once by elicitation and its answer is
// recorded; a second client connected meanwhile is refused the body,
// told who holds it; the mug ends in the top drawer and the session's run
// log replays as a thea test episode.
func TestMCPHouseholdTaskOverHTTP(t *testing.T) {
	spec := testutil.ExampleCopy(t, householdSpec)
	confirmDrawers(t, spec)
	runs := t.TempDir()
	const token = "0123456789abcdef-mcp-http"
	base, stop := serveProcess(t, filepath.Dir(spec), token, "--spec", spec, "--mcp", "--run-log", runs)

	// Without the token, /mcp is refused before the protocol.
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, base+"/mcp",
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

	var asked atomic.Int32
	cs := dialMCPHTTP(t, base, token, "household-driver", &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			asked.Add(1)
			if !strings.Contains(req.Params.Message, "open_drawer") || !strings.Contains(req.Params.Message, "top_drawer") {
				t.Errorf("the elicitation does not show the call: %q", req.Params.Message)
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": "yes"}}, nil
		}})
	other := dialMCPHTTP(t, base, token, "second-client", nil)
	driveHouseholdTask(t, cs, func() {
		// Two clients never move one body at once.
		text, _, isErr := call(t, other, "navigate_to", map[string]any{"target": "table"})
		if !isErr || !strings.Contains(text, "navigate_to not executed") || !strings.Contains(text, `held by MCP client "household-driver" 1`) {
			t.Errorf("a second client's physical call while the first holds the body: error %v, %q", isErr, text)
		}
	})
	if n := asked.Load(); n != 1 {
		t.Errorf("the client was asked %d times, want once (for open_drawer)", n)
	}
	b, err := os.ReadFile(replayRunLog(t, spec, runs))
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	for _, want := range []string{`"outcome":"approve","answer":"yes"`, `"by":"mcp elicitation: household-driver 1 (session `} {
		if !strings.Contains(log, want) {
			t.Errorf("the run log does not record the client's answer: no %s", want)
		}
	}
	if strings.Contains(log, "second-client") {
		t.Error("the refused client's call is in the task's run log")
	}
	_ = cs.Close()
	_ = other.Close()
	stop()
}
