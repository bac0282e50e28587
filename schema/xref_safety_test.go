package schema_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets"
)

const safetySpec = `name: s
model: {provider: ollama, name: m}
embodiment:
  name: rover
  limits: {min_clearance_m: 0.05, safety_margin_m: 0.02}
toolsets:
  base: {kind: mcp, command: [base-server], tools: [move_base, cancel_motion]}
  arm: {kind: mcp, command: [arm-server], tools: [grip]%s}
tools:
  move_base: {physical: true}
  grip: {physical: true}
hooks:
  pre:
    - name: back
      action: clamp
      clamp: {arg: distance_m, max: "clearance.front"}
    - name: both
      action: clamp
      clamp: {arg: angle, min: "-90", max: "90"}
`

func loadYAML(t *testing.T, src string) (*schema.Spec, []schema.Diagnostic) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "spec.yaml")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return schema.Load([]string{p}, schema.LoadOptions{Descriptors: componentstest.Descriptors(t)})
}

func TestSafetyWarnings(t *testing.T) {
	s, found := loadYAML(t, strings.Replace(safetySpec, "%s", ", stop: {tool: release}", 1))
	var diags []schema.Diagnostic // the errors; warnings come along
	for _, d := range found {
		if !d.Warning {
			diags = append(diags, d)
		}
	}
	if len(diags) != 1 || !strings.Contains(diags[0].Message, `the stop tool "release" is not in toolsets.arm.tools`) {
		t.Fatalf("want one error about the stop tool, got %v (spec %v)", diags, s != nil)
	}

	s, diags = loadYAML(t, strings.Replace(safetySpec, "%s", "", 1))
	if len(diags) > 0 {
		t.Fatalf("warnings must not fail the load: %v", diags)
	}
	var got []string
	for _, w := range s.Warnings {
		if !w.Warning || !strings.Contains(w.String(), ": warning: ") {
			t.Errorf("not a warning: %+v", w)
		}
		got = append(got, w.Message)
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		"toolsets.arm: serves physical tools (grip) but declares no stop tool",
		"toolsets.base: serves physical tools (move_base) but declares no stop tool",
		`hooks.pre[0].clamp: the clamp of "distance_m" has max but no min: a negative value`,
	} {
		if !strings.Contains(all, want) {
			t.Errorf("warnings lack %q:\n%s", want, all)
		}
	}
	if len(got) != 3 {
		t.Errorf("want 3 warnings (the two-sided clamp is fine), got:\n%s", all)
	}
	if s.Toolsets["base"].StopGrace.D().String() != "2s" || s.Safety.Uncertainty != "body" || s.Embodiment.Lock.Mode != "wait" {
		t.Errorf("defaults: stop_grace %v, uncertainty %q, lock %+v", s.Toolsets["base"].StopGrace.D(), s.Safety.Uncertainty, s.Embodiment.Lock)
	}

	declared := strings.Replace(safetySpec, "%s", "", 1)
	declared = strings.Replace(declared, "tools: [move_base, cancel_motion]}", "tools: [move_base, cancel_motion], stop: {tool: cancel_motion, args: {hard: true}}}", 1)
	s, diags = loadYAML(t, declared)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	for _, w := range s.Warnings {
		if strings.Contains(w.Message, "toolsets.base") {
			t.Errorf("a declared stop still warns: %s", w)
		}
	}
	if st := s.Toolsets["base"].Config.(toolsets.MCPConfig).Stop; st == nil || st.Tool != "cancel_motion" || st.Args["hard"] != true || st.Timeout.D().String() != "2s" {
		t.Errorf("stop = %+v", st)
	}
}
