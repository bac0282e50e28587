package cli_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/internal/testutil"
)

// confirmDrawers turns the household spec's idle confirm hook into one
// that asks before a drawer is opened.
func confirmDrawers(t *testing.T, spec string) {
	t.Helper()
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	old := "\t\tname:   \"confirm_nothing\"\n\t\twhen:   \"false\""
	if !strings.Contains(string(b), old) {
		t.Fatal("the household spec's confirm_nothing hook changed; update this test")
	}
	b = []byte(strings.Replace(string(b), old, "\t\tname:   \"confirm_drawers\"\n\t\twhen:   \"tool.name == 'open_drawer'\"", 1))
	if err := os.WriteFile(spec, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A confirm hook asks the person behind the MCP client that made the call,
// by elicitation, once: their accept lets the drawer open, their decline
// blocks it, and the run log records each answer as data, by the client.
func TestMCPConfirmByElicitation(t *testing.T) {
	for _, action := range []string{"accept", "decline"} {
		t.Run(action, func(t *testing.T) {
			spec := testutil.ExampleCopy(t, householdSpec)
			confirmDrawers(t, spec)
			runs := t.TempDir()
			self, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(self, "mcp", "--spec", spec, "--run-log", runs)
			cmd.Dir = filepath.Dir(spec)
			cmd.Env = append(os.Environ(), ptyMainEnv+"=1")
			stderr := &writeBuffer{}
			cmd.Stderr = stderr
			var asked atomic.Int32
			client := mcp.NewClient(&mcp.Implementation{Name: "person-" + action, Version: "1"}, &mcp.ClientOptions{
				ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked.Add(1)
					if !strings.Contains(req.Params.Message, "open_drawer") || !strings.Contains(req.Params.Message, "top_drawer") {
						t.Errorf("the elicitation does not show the call: %q", req.Params.Message)
					}
					if action == "accept" {
						return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"answer": "yes"}}, nil
					}
					return &mcp.ElicitResult{Action: "decline"}, nil
				}})
			ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(30*time.Second))
			defer cancel()
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
			if err != nil {
				t.Fatalf("connecting: %v\n%s", err, stderr.String())
			}
			call(t, cs, "begin_task", map[string]any{"instruction": "Open the top drawer"})
			call(t, cs, "navigate_to", map[string]any{"target": "cabinet"})
			text, _, _ := call(t, cs, "open_drawer", map[string]any{"name": "top_drawer"})
			call(t, cs, "end_task", map[string]any{"summary": "done"})
			if err := cs.Close(); err != nil {
				t.Logf("closing: %v", err)
			}
			if n := asked.Load(); n != 1 {
				t.Fatalf("the client was asked %d times, want once; stderr:\n%s", n, stderr.String())
			}
			wantResult, wantLog := "verdict: success", `"outcome":"approve","answer":"yes"`
			if action == "decline" {
				wantResult, wantLog = "declined", `"outcome":"deny","answer":"declined"`
			}
			if !strings.Contains(text, wantResult) {
				t.Fatalf("open_drawer after %s: %q", action, text)
			}
			logs, _ := filepath.Glob(filepath.Join(runs, "*", "events.jsonl"))
			var all strings.Builder
			for _, l := range logs {
				b, err := os.ReadFile(l)
				if err != nil {
					t.Fatal(err)
				}
				all.Write(b)
			}
			if !strings.Contains(all.String(), wantLog) || !strings.Contains(all.String(), `"by":"mcp elicitation: person-`+action+` 1 (session `) {
				t.Fatalf("the run log does not record the answer as data by the client (%s, by)", wantLog)
			}
		})
	}
}
