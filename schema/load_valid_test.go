package schema_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets"
)

func mustLoad(t *testing.T, paths ...string) *schema.Spec {
	t.Helper()
	s, diags := schema.Load(paths, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: componentstest.Descriptors(t)})
	for _, d := range diags {
		t.Errorf("%s", d)
	}
	if s == nil {
		t.Fatalf("Load(%v) failed", paths)
	}
	return s
}

// TestMultiFileCUE unifies two files of one package, with a refined bundled profile.
func TestMultiFileCUE(t *testing.T) {
	s := mustLoad(t, "testdata/valid/multi/spec.cue", "testdata/valid/multi/tools.cue")
	if s.Embodiment.Name != "household-sim" || s.Embodiment.Limits.MaxSpeedMps != 0.5 || s.Embodiment.Limits.ReachM != 0.8 {
		t.Errorf("refined profile not applied: %+v", s.Embodiment)
	}
	if s.Tools["grasp"].Check == "" || s.Rules.Checks["grasp"] == nil || len(s.Rules.Post) != 1 {
		t.Errorf("second file's tools and hooks missing: %+v %+v", s.Tools, s.Rules)
	}
	if got := s.Pos("tools.grasp"); !strings.HasSuffix(got.File, "tools.cue") || got.Line != 4 {
		t.Errorf("Pos(tools.grasp) = %v, want tools.cue:4", got)
	}
	if s.Toolsets["arm"].Config.(toolsets.MCPConfig).URL == "" || s.Toolsets["arm"].Timeout.D().Seconds() != 30 {
		t.Errorf("toolset defaults not applied: %+v", s.Toolsets["arm"])
	}
}

// TestDefaults checks the schema's defaults reach the plan of a minimal spec.
func TestDefaults(t *testing.T) {
	s := mustLoad(t, "testdata/valid/minimal.json")
	c := s.Context.Compaction
	if !c.Enabled || c.ContextWindow != 200000 || c.ReserveTokens != 16384 || c.KeepRecentTurns != 4 ||
		c.KeepRecentTokens != 20000 || c.ToolResultMaxChars != 2000 || c.ReasoningMaxChars != 2000 ||
		c.MaxInputChars != 400000 || c.MaxSummaryRounds != 8 {
		t.Errorf("compaction defaults: %+v", c)
	}
	if got := strings.Join(s.Loop.Stages, ","); got != "task_notes,observe,scene_brief,compact" {
		t.Errorf("default stages: %s", got)
	}
	if s.Safety.FailureBudget != (schema.FailureBudget{Consecutive: 3, Total: 8, Format: 5}) || s.Safety.MaxTurns != 60 ||
		s.Safety.LoopDetection != (schema.LoopDetection{Enabled: true, Repeats: 3}) {
		t.Errorf("safety defaults: %+v", s.Safety)
	}
	if s.Memory.Dir != ".thea/memory" || s.Memory.Consolidation.Threshold != 0.7 || s.RunLog.Dir != ".thea/runs" ||
		!s.RunLog.Enabled || s.User.Channel != "terminal" || s.SystemPrompt == "" {
		t.Errorf("defaults: memory %+v run_log %+v user %+v", s.Memory, s.RunLog, s.User)
	}
	if len(s.Hooks.Pre) != 0 || s.Rules == nil {
		t.Errorf("hooks %+v rules %v", s.Hooks, s.Rules)
	}
}

// TestLoadUsage covers bad invocations: each yields one positioned diagnostic.
func TestLoadUsage(t *testing.T) {
	for _, tc := range []struct {
		paths []string
		want  string
	}{
		{nil, "no spec file given"},
		{[]string{"testdata/valid/minimal.json", "testdata/valid/multi/spec.cue"}, "several files must all be .cue"},
		{[]string{"spec.toml"}, "unsupported spec file type"},
		{[]string{"testdata/valid/missing.yaml"}, "reading spec"},
	} {
		s, diags := schema.Load(tc.paths, schema.LoadOptions{Descriptors: componentstest.Descriptors(t)})
		if s != nil || len(diags) != 1 || !strings.Contains(diags[0].Message, tc.want) {
			t.Errorf("Load(%v) = %v, want one diagnostic containing %q", tc.paths, diags, tc.want)
		}
	}
}

// TestProfilesAreOptional: without bundled profiles a reference to one is an
// error at the spec's position, not a crash.
func TestProfilesAreOptional(t *testing.T) {
	s, diags := schema.Load([]string{"testdata/valid/multi/spec.cue", "testdata/valid/multi/tools.cue"}, schema.LoadOptions{Descriptors: componentstest.Descriptors(t)})
	if s != nil || len(diags) == 0 || !strings.HasSuffix(diags[0].Pos.File, "spec.cue") {
		t.Errorf("want a positioned error for the missing profile, got %v", diags)
	}
}

// TestPos maps spec paths to where the user wrote them; a path not written
// (a default) reports its nearest written ancestor.
func TestPos(t *testing.T) {
	const f = "testdata/valid/pos.yaml"
	s := mustLoad(t, f)
	for _, tc := range []struct {
		path      string
		line, col int
	}{
		{"model.provider", 2, 9},
		{"hooks.pre[1]", 13, 7},
		{"hooks.pre[1].rule", 15, 7},
		{"tests[1]", 20, 5},
		{"tests[1].call.tool", 21, 12},
		{"hooks.pre[0].rule", 11, 7}, // default: reported at the hook
		{"", 1, 1},
	} {
		if p := s.Pos(tc.path); p != (schema.Pos{File: f, Line: tc.line, Col: tc.col}) {
			t.Errorf("Pos(%q) = %v, want %s:%d:%d", tc.path, p, f, tc.line, tc.col)
		}
	}
}

// TestNoPackageClause: CUE files without a package clause are still one spec.
func TestNoPackageClause(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"spec.cue", "tools.cue"} {
		b, err := os.ReadFile(filepath.Join("testdata/valid/multi", name))
		if err != nil {
			t.Fatal(err)
		}
		src := strings.Replace(string(b), "package robot\n", "", 1)
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	s := mustLoad(t, paths...)
	if s.Embodiment.Name != "household-sim" || s.Tools["grasp"].Check == "" {
		t.Errorf("files not unified: %+v %+v", s.Embodiment, s.Tools)
	}
}

// Top-level x- fields of a YAML spec hold anchors and are ignored; the
// aliases elsewhere are expanded. Below the top level an x- field is as
// unknown as any other.
func TestYAMLExtensionFields(t *testing.T) {
	s := mustLoad(t, "testdata/valid/extensions.yaml")
	if s.Embodiment.Limits.ReachM != 0.8 || !s.Tools["move_base"].Physical || !s.Tools["rotate"].Physical ||
		s.Tools["rotate"].Description != "Turns in place." || len(s.Tools["rotate"].Tags) != 1 {
		t.Errorf("aliases not expanded: %+v %+v", s.Embodiment.Limits, s.Tools)
	}
	if got := s.Pos("hooks.pre[0].rule"); got.Line != 24 {
		t.Errorf("positions after x- fields: %v, want line 24", got)
	}
	dir := t.TempDir()
	src, err := os.ReadFile("testdata/valid/extensions.yaml")
	if err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(string(src), "  core: {kind: builtin}", "  core: {kind: builtin, x-note: 1}", 1)
	if err := os.WriteFile(filepath.Join(dir, "spec.yaml"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	_, diags := schema.Load([]string{filepath.Join(dir, "spec.yaml")}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: componentstest.Descriptors(t)})
	if len(diags) != 1 || !strings.Contains(diags[0].Message, `toolsets.core.x-note: unknown field "x-note"`) {
		t.Errorf("a nested x- field: %v", diags)
	}
}
