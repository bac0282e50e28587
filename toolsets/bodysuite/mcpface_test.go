package bodysuite_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/mcpserve"
	"github.com/thea-harness/thea/models/script"
	"github.com/thea-harness/thea/toolsets/internal/faultserver"
)

// The MCP face over a back-end that misbehaves: the session a spec builds
// over the fault server (a real subprocess), served to the official Go
// SDK's client over streamable HTTP as thea serve --mcp serves it.

// mcpFace is a face and the fault directory of its back-end.
type mcpFace struct {
	url    string
	faults string
	h      *engine.Harness
}

// faceSpec writes a spec over tr's fault server (stop its stop path) and
// returns its path and the fault directory.
func faceSpec(t *testing.T, tr transport, stop string) (spec, faults string) {
	t.Helper()
	// The face offers its own observe (the Brief and Observation).
	fb := newFaultBackend(t, tr, stop, "5s", "observe")
	// The script serves only the evaluator: the client decides.
	spec = fb.write(t, fmt.Sprintf(stopSpecYAML, fb.section, fb.faults, "5s", "{physical: true}", fb.contracts), "- text: unused\n")
	return spec, fb.faults
}

func newMCPFace(t *testing.T, tr transport, stop string, edits ...[2]string) *mcpFace {
	t.Helper()
	spec, faults := faceSpec(t, tr, stop)
	for _, e := range edits {
		b, err := os.ReadFile(spec)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), e[0]) {
			t.Fatalf("the face's spec has no %q", e[0])
		}
		if err := os.WriteFile(spec, []byte(strings.Replace(string(b), e[0], e[1], 1)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	d := mcpserve.NewDecider()
	safety := &mcpserve.Safety{Lease: mcpserve.NewLease(0, nil), Confirm: mcpserve.NewConfirmations(nil, nil)}
	h := sessionOver(t, tr, spec, script.Provider(), func(opts *engine.Options) {
		opts.Decider, opts.WrapUser = d, safety.Confirm.Over
	})
	srv, err := mcpserve.New(t.Context(), h, d, mcpserve.Options{Idle: -1, Safety: safety})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	ts := httptest.NewServer(mcpserve.HTTPHandler(srv.MCP(), 0))
	t.Cleanup(ts.Close)
	return &mcpFace{url: ts.URL, faults: faults, h: h}
}

func (f *mcpFace) dial(t *testing.T, name string) *sdk.ClientSession {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: name, Version: "1.0"}, nil)
	cs, err := c.Connect(t.Context(), &sdk.StreamableClientTransport{Endpoint: f.url, HTTPClient: http.DefaultClient}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func callText(t *testing.T, ctx context.Context, cs *sdk.ClientSession, tool string, args map[string]any) (string, error) {
	t.Helper()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), nil
}

// A client cancels its physical call while the back-end keeps moving: the
// cancellation reaches the body layer, whose stop path calls the back-end's
// stop tool, and the motion ends stopped; the next physical call of any
// client is refused until the body is observed.
func TestMCPCancelRunsStopPath(t *testing.T) {
	f := newMCPFace(t, mcpTransport(), "ok")
	cs := f.dial(t, "canceller")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		_, err := callText(t, ctx, cs, "move_base", map[string]any{"ms": 60000})
		errc <- err
	}()
	testtime.Wait(t, "the motion starting on the back-end", func() bool { return logLines(t, f.faults, "start") > 0 })
	cancel() // the SDK sends notifications/cancelled
	if err := <-errc; err == nil {
		t.Fatal("the cancelled call answered as if it had run")
	}
	testtime.Wait(t, "the stop reaching the back-end", func() bool { return logLines(t, f.faults, "stop") > 0 })

	text, err := callText(t, t.Context(), cs, "move_base", map[string]any{"ms": 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("after the cancel: %s", text)
	if !strings.Contains(text, "uncertain") {
		t.Fatalf("the call after a cancelled motion does not report the body uncertain: %q", text)
	}
}

// The back-end crashes during a client's physical call: the client gets
// the envelope saying so, the body is uncertain for the next motion, and
// the back-end is restarted for the next call (a read answers).
func TestMCPBackendCrashMidCall(t *testing.T) {
	f := newMCPFace(t, mcpTransport(), "ok")
	cs := f.dial(t, "crash-client")
	text, err := callText(t, t.Context(), cs, "move_base", map[string]any{"ms": 1, "fault": "crash"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, `"success":false`) || !strings.Contains(text, "the base back-end crashed during move_base") {
		t.Fatalf("the crashed call's result: %q", text)
	}
	if text, err = callText(t, t.Context(), cs, "probe", map[string]any{}); err != nil || !strings.Contains(text, `"success":true`) {
		t.Fatalf("a read after the crash (the back-end restarted): %q, %v", text, err)
	}
	if b, err := os.ReadFile(filepath.Join(f.faults, faultserver.StartsFile)); err != nil || strings.Count(string(b), "\n") != 2 {
		t.Fatalf("back-end starts: %q, %v; want the first and one restart", b, err)
	}
	text, err = callText(t, t.Context(), cs, "move_base", map[string]any{"ms": 1})
	if err != nil || !strings.Contains(text, "uncertain") {
		t.Fatalf("a motion after the crash: %q, %v; want it refused as uncertain", text, err)
	}
}

// A secret of the environment that a back-end echoes never reaches the
// MCP client: not in a call's result, not in observe.
func TestMCPSecretNeverReachesTheClient(t *testing.T) {
	const secret = "s3cr3t-mcp-face-0123456789"
	t.Setenv(faultserver.SecretEnv, secret)
	f := newMCPFace(t, mcpTransport(), "ok",
		[2]string{"    tools: [", "    env_passthrough: [" + faultserver.SecretEnv + "]\n    tools: ["},
		[2]string{"run_log: {enabled: true, dir: runs}", "run_log: {enabled: true, dir: runs, secret_env: [" + faultserver.SecretEnv + "]}"})
	cs := f.dial(t, "curious")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{{"probe", map[string]any{"fault": "secret"}}, {"observe", map[string]any{}}} {
		text, err := callText(t, t.Context(), cs, c.tool, c.args)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(text, secret) {
			t.Fatalf("%s showed the client the secret: %q", c.tool, text)
		}
		if c.tool == "probe" && !strings.Contains(text, "token") {
			t.Fatalf("the echoing call did not run: %q", text)
		}
	}
}
