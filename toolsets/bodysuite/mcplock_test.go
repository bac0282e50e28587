package bodysuite_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thea-harness/thea/internal/testtime"
)

// Across processes the body lock keeps a thea mcp and a thea run from
// moving one body at once: while a client's motion runs through a real
// thea mcp process, a thea run on the same spec (lock.mode refuse) is
// refused its motion, naming the process that drives the body.
func TestMCPAndRunShareTheBodyLock(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	spec, faults := faceSpec(t, mcpTransport(), "ok")
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	lock := "lock: {dir: " + quote(faults) + "}"
	if !strings.Contains(string(b), lock) {
		t.Fatalf("the spec's lock line changed: %s", b)
	}
	b = []byte(strings.Replace(string(b), lock, "lock: {dir: "+quote(faults)+", mode: refuse}", 1))
	if err := os.WriteFile(spec, b, 0o600); err != nil {
		t.Fatal(err)
	}
	// thea run's own spec: the same body, a script that moves it.
	runSpec := filepath.Join(filepath.Dir(spec), "run.yaml")
	if err := os.WriteFile(runSpec, []byte(strings.Replace(string(b), "script: turns.yaml", "script: run-turns.yaml", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(spec), "run-turns.yaml"),
		[]byte("- tool_calls: [{name: move_base, arguments: {ms: 1}}]\n- text: Moved.\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(self, "mcp", "--spec", spec)
	cmd.Env = append(os.Environ(), theaEnv+"=1")
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "lock-holder", Version: "1.0"}, nil).
		Connect(t.Context(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = cs.CallTool(ctx, &sdk.CallToolParams{Name: "move_base", Arguments: map[string]any{"ms": 60000}})
	}()
	t.Cleanup(func() { cancel(); <-done })
	testtime.Wait(t, "the MCP client's motion starting", func() bool { return logLines(t, faults, "start") > 0 })

	run := exec.Command(self, "run", "--spec", runSpec, "--run-log", t.TempDir(), "drive")
	run.Env = append(os.Environ(), theaEnv+"=1")
	out, err := run.CombinedOutput()
	if !strings.Contains(string(out), "another process") || !strings.Contains(string(out), "is driving this body") {
		t.Fatalf("thea run beside a moving thea mcp (%v) was not refused by the body lock:\n%s", err, out)
	}
	if n := logLines(t, faults, "start"); n != 1 {
		t.Fatalf("%d motions started on the body, want only the MCP client's", n)
	}
}

// quote is a YAML double-quoted string.
func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }
