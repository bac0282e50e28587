package e2e_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/thea-harness/thea/cmd/thea/cli"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/models/script"
	"github.com/thea-harness/thea/runlog"
)

// vaultArg makes the test binary serve vaultBackend over stdio: a real MCP
// subprocess that answers with the secrets it can read from its
// environment, numbers as JSON numbers.
const vaultArg = "vault-backend"

// The secrets of the test besides the API key (key): a number and a string
// declared by run_log.secret_env, and a card number only the pattern
// 4111[0-9]{12} matches.
const (
	vaultPIN   = "987654321012"
	vaultToken = "tok-e2e-vault-77aa"
	vaultCard  = "4111111111111111"
)

// vaultSecrets are the secrets, and the numbers as Go's default float
// formatting would print them.
var vaultSecrets = []string{key, vaultPIN, vaultToken, vaultCard, "9.87654321012e+11", "4.111111111111111e+15"}

func vaultBackend() error {
	pin, token, apiKey := os.Getenv("THEA_E2E_PIN"), os.Getenv("THEA_E2E_TOKEN"), os.Getenv("THEA_E2E_KEY")
	s := mcpserver.NewMCPServer("vault", "0.0.1")
	s.AddTool(mcp.NewTool("observe", mcp.WithDescription("the vault's display")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(fmt.Sprintf(`{"summary":"the display shows %s","state":{"pin":%s,"card":%s}}`,
				token, pin, vaultCard)), nil
		})
	s.AddTool(mcp.NewTool("open_vault", mcp.WithDescription("opens the vault and reports its codes")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(fmt.Sprintf(`{"pin":%s,"card":%s,"token":%q,"note":"opened with key %s"}`,
				pin, vaultCard, token, apiKey)), nil
		})
	if err := mcpserver.ServeStdio(s); err != nil {
		return fmt.Errorf("vault back-end: %w", err)
	}
	return nil
}

const vaultSpec = `name: vault
model: {provider: openai, name: e2e-model, base_url: "%s/v1", api_key_env: THEA_E2E_KEY, max_tokens: 1024, timeout: %s, retries: 0}
embodiment:
  name: kiosk
  cameras: []
  frames: []
  limits: {min_clearance_m: 0.3, safety_margin_m: 0.1}
observation: {tool: observe}
toolsets:
  core: {kind: builtin}
  vault: {kind: mcp, command: [thea, vault-backend], env_passthrough: [THEA_E2E_KEY, THEA_E2E_PIN, THEA_E2E_TOKEN],
    timeout: %[2]s, start_timeout: %[2]s}
tools:
  observe: {hidden: true}
loop: {stages: [task_notes, observe, compact]}
user: {channel: none}
run_log: {secret_env: [THEA_E2E_PIN, THEA_E2E_TOKEN], redact: ['4111[0-9]{12}']}
memory: {dir: mem, consolidation: {enabled: true, threshold: 0.5}}
`

// Declared secrets never leave the process nor persist, end to end: a real
// back-end subprocess answers with a number secret, a card number a
// pattern matches, a string secret and the model's API key; the model (a
// local server speaking the OpenAI wire) writes them back in its report
// and its memory candidates. Two `thea run` sessions, one with --json, one
// printing the trace: no request body the provider received, no line of
// stdout or stderr, no file of the run logs or the memory carries one.
func TestNoSecretLeavesOrPersists(t *testing.T) {
	t.Setenv("THEA_E2E_KEY", key)
	t.Setenv("THEA_E2E_PIN", vaultPIN)
	t.Setenv("THEA_E2E_TOKEN", vaultToken)
	echo := "pin " + vaultPIN + ", card " + vaultCard + ", token " + vaultToken + ", key " + key
	cands, err := json.Marshal(map[string]any{"candidates": []any{
		map[string]any{"scope": "memory", "entry": "The vault opens with " + echo, "confidence": 0.9},
		map[string]any{"scope": "tool", "tool": "open_vault", "entry": "open_vault reports " + echo, "confidence": 0.9},
	}})
	must(t, err)
	open := script.Call{Name: "open_vault"}
	brain, err := script.FromEntries("vault episode",
		script.Entry{ToolCalls: []script.Call{open}},
		script.Entry{Text: "Opened: " + echo},
		script.Entry{Purpose: model.PurposeConsolidate, Text: string(cands)},
		script.Entry{ToolCalls: []script.Call{open}},
		script.Entry{Text: "Still open: " + echo},
		script.Entry{Purpose: model.PurposeConsolidate, Text: string(cands)})
	must(t, err)
	srv, url := serveWire(t, openaiWire(), brain)

	work := t.TempDir()
	spec := filepath.Join(work, "spec.yaml")
	must(t, os.WriteFile(spec, fmt.Appendf(nil, vaultSpec, url, testtime.Scale(20*time.Second)), 0o600))
	run := func(args ...string) (string, string) {
		var out, errb bytes.Buffer
		code := cli.Execute(t.Context(), strings.NewReader(""), &out, &errb, append([]string{"run", "--spec", spec}, args...))
		if code != 0 {
			t.Fatalf("thea run %v: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, out.String(), errb.String())
		}
		return out.String(), errb.String()
	}
	jsonOut, jsonErr := run("--json", "--run-log", filepath.Join(work, "runs1"), "open the vault with PIN "+vaultPIN+" and card "+vaultCard)
	traceOut, traceErr := run("--run-log", filepath.Join(work, "runs2"), "check the vault, token "+vaultToken)

	for name, s := range map[string]string{"--json stdout": jsonOut, "--json stderr": jsonErr, "trace stdout": traceOut, "trace stderr": traceErr} {
		if l := leaksOf(s); len(l) > 0 {
			t.Errorf("%s carries %v:\n%s", name, l, s)
		}
	}
	if !strings.Contains(traceOut, "[redacted]") {
		t.Errorf("the trace shows no redaction:\n%s", traceOut)
	}
	var result *runlog.Envelope
	sc := bufio.NewScanner(strings.NewReader(jsonOut))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev runlog.Event
		must(t, json.Unmarshal(sc.Bytes(), &ev))
		if ev.Kind == runlog.EventToolResult && ev.Tool == "open_vault" {
			result = ev.Result
		}
	}
	if result == nil || result.Value["pin"] != "[redacted]" || result.Value["card"] != "[redacted]" || result.Value["token"] != "[redacted]" {
		t.Fatalf("open_vault's result in --json = %+v, want the numbers and the token replaced by the marker", result)
	}

	srv.mu.Lock()
	bodies, keys, purposes := srv.bodies, srv.keys, srv.purposes
	srv.mu.Unlock()
	count := map[model.Purpose]int{}
	for i, b := range bodies {
		count[purposes[i]]++
		if l := leaksOf(string(b)); len(l) > 0 {
			t.Errorf("request %d (%s) carries %v", i+1, purposes[i], l)
		}
		if keys[i] != "Bearer "+key {
			t.Errorf("request %d: Authorization %q", i+1, keys[i])
		}
	}
	if count[model.PurposeDecide] != 4 || count[model.PurposeConsolidate] != 2 {
		t.Fatalf("requests by purpose %v, want 4 decisions and 2 consolidations", count)
	}
	// The second session's first request holds the first's memory and tool
	// experience, and the instruction: each redacted, not dropped.
	second := string(bodies[3])
	for _, want := range []string{"The vault opens with pin [redacted], card [redacted], token [redacted], key [redacted]",
		"open_vault reports pin [redacted]", "check the vault, token [redacted]", `state: card [redacted], pin [redacted]`} {
		if !strings.Contains(second, want) {
			t.Errorf("the second session's first request lacks %q", want)
		}
	}

	files := eachFile(t, work, func(p, name string, b []byte) {
		if l := leaksOf(name + "\n" + string(b)); len(l) > 0 {
			t.Errorf("%s carries %v", p, l)
		}
	})
	for _, rel := range []string{"MEMORY.md", filepath.Join("tool_experience", "open_vault.md")} {
		if _, err := os.Stat(filepath.Join(work, "mem", rel)); err != nil {
			t.Errorf("consolidation wrote no %s: %v", rel, err)
		}
	}
	t.Logf("%d requests, %d files checked", len(bodies), files)
}

// leaksOf lists the secrets s carries.
func leaksOf(s string) []string {
	var out []string
	for _, sec := range vaultSecrets {
		if strings.Contains(s, sec) {
			out = append(out, sec)
		}
	}
	return out
}
