package toolsets_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets"
)

// An MCP stop tool's timeout has one default, the schema's: Load fills it
// and the back-end (the fault server, a real subprocess) starts with it; a
// section built in Go that leaves it 0 does not start, and says which field.
func TestStopTimeoutIsTheSchemas(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	spec := filepath.Join(dir, "spec.yaml")
	text := fmt.Sprintf(`name: stop-timeout
model: {provider: ollama, name: m}
embodiment:
  name: base
  limits: {min_clearance_m: 0.3, safety_margin_m: 0.1}
toolsets:
  base:
    kind: mcp
    command: [%q, "-test.run=^$"]
    env: {%s: "1", %s: %q}
    tools: [observe]
    stop: {tool: observe}
`, self, toolsets.FaultEnv, toolsets.FaultDirEnv, dir)
	if err := os.WriteFile(spec, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	c := componentstest.Default(t)
	s, diags := schema.Load([]string{spec}, schema.LoadOptions{Descriptors: c.Descriptors(), Context: t.Context()})
	if s == nil {
		t.Fatalf("the spec does not load: %v", diags)
	}
	sec := s.Toolsets["base"]
	mcp := sec.Config.(toolsets.MCPConfig)
	if mcp.Stop == nil || mcp.Stop.Timeout <= 0 {
		t.Fatalf("the loaded stop %+v has no timeout: the schema's default is missing", mcp.Stop)
	}
	start := func(sec schema.Toolset) error {
		cfg := engine.ToolsetConfig{Name: "base", Section: sec, Dir: s.Dir,
			Contract: func(tool string) schema.ToolContract { return s.ContractFor("base", tool) }}
		g, err := engine.StartToolset(t.Context(), toolsets.MCPKind(), cfg, body.NewLayer(body.Shared{}), nil)
		if err == nil {
			t.Cleanup(func() { _ = g.Close() })
		}
		return err
	}
	if err := start(sec); err != nil {
		t.Fatalf("start with the schema's default: %v", err)
	}
	noTimeout := *mcp.Stop
	noTimeout.Timeout = 0
	mcp.Stop = &noTimeout
	sec.Config = mcp
	if err := start(sec); err == nil || !strings.Contains(err.Error(), "stop.timeout is 0s: it must be positive") {
		t.Fatalf("start with stop.timeout 0: %v, want an error naming the field", err)
	}
}
