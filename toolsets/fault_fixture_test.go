package toolsets

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/internal/faultserver"
)

// The fault suite of the body layer runs against every transport in
// toolsets/bodysuite; here are only the MCP transport's own faults (its stdio
// back-end's stdout), against the same fault server.

// faultEnv makes the test binary serve the fault server.
const faultEnv = "THEA_TOOLSETS_FAULTSERVER"

// faultSpec is a spec whose base toolset runs the fault server recording
// into dir.
func faultSpec(self, dir string) *schema.Spec {
	return &schema.Spec{
		Dir: dir,
		Toolsets: map[string]schema.Toolset{"base": {
			Kind: "mcp",
			Config: MCPConfig{Command: []string{self, "-test.run=^$"},
				Env: map[string]string{faultEnv: "1", faultserver.DirEnv: dir}},
			Timeout: schema.Duration(testtime.Scale(10 * time.Second)),
			Restart: schema.Restart{MaxRestarts: 10, Backoff: schema.Duration(time.Millisecond)},
		}},
		Tools: map[string]schema.ToolContract{},
	}
}

func startFault(t testing.TB, spec *schema.Spec, deps body.Shared) *started {
	t.Helper()
	ts, err := startMCP(t.Context(), configFor(spec, "base", nil), deps)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ts.Close() })
	return ts
}

func newFaultDir(t testing.TB) (self, dir string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return self, t.TempDir()
}

func setStart(t *testing.T, dir, mode string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, faultserver.StartFile), []byte(mode), 0o644); err != nil {
		t.Fatal(err)
	}
}

// events collects SafetyEvents.
type events struct {
	mu  sync.Mutex
	evs []engine.SafetyEvent
}

func (e *events) add(ev engine.SafetyEvent) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.evs = append(e.evs, ev)
}

// texts are the texts of the events of kind.
func (e *events) texts(kind string) []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []string
	for _, ev := range e.evs {
		if ev.Kind == kind {
			out = append(out, ev.Text)
		}
	}
	return out
}

func noRawEscape(t *testing.T, where, s string) {
	t.Helper()
	if strings.ContainsAny(s, "\x1b\x07\r") {
		t.Fatalf("%s carries raw control characters: %q", where, s)
	}
}
