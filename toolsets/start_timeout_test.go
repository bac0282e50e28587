package toolsets_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets"
)

// A toolset section that gives no start_timeout runs with the schema's
// default, the one the reference documents: Load fills it, and the body
// layer starts the back-end (the fault server, a real subprocess) with it.
func TestStartTimeoutIsTheSchemas(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	spec := filepath.Join(dir, "spec.yaml")
	text := fmt.Sprintf(`name: start-timeout
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
`, self, toolsets.FaultEnv, toolsets.FaultDirEnv, dir)
	if err := os.WriteFile(spec, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	c := componentstest.Default(t)
	s, diags := schema.Load([]string{spec}, schema.LoadOptions{Descriptors: c.Descriptors(), Context: t.Context()})
	if s == nil {
		t.Fatalf("the spec does not load: %v", diags)
	}
	want, err := schema.ToolsetDefaults("mcp")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Toolsets["base"].StartTimeout; got != want.StartTimeout || got <= 0 {
		t.Fatalf("start_timeout %s, want the schema's default %s", got.D(), want.StartTimeout.D())
	}
	cfg := engine.ToolsetConfig{Name: "base", Section: s.Toolsets["base"], Dir: s.Dir,
		Contract: func(tool string) schema.ToolContract { return s.ContractFor("base", tool) }}
	g, err := engine.StartToolset(t.Context(), toolsets.MCPKind(), cfg, body.NewLayer(body.Shared{}), nil)
	if err != nil {
		t.Fatalf("start with the schema's default: %v", err)
	}
	t.Cleanup(func() { _ = g.Close() })
}
