package engine_test

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// A size bound the schema fills (its one default) that reaches New as 0 (a
// spec built in Go without it) is an error naming the field, never a
// second default kept in Go.
func TestBoundsTheSchemaFillsAreRequired(t *testing.T) {
	for _, tc := range []struct {
		path string
		edit func(s *schema.Spec)
	}{
		{"context.compaction.tool_result_max_chars", func(s *schema.Spec) { s.Context.Compaction.ToolResultMaxChars = 0 }},
		{"context.compaction.reasoning_max_chars", func(s *schema.Spec) { s.Context.Compaction.ReasoningMaxChars = 0 }},
		{"memory.memory_chars", func(s *schema.Spec) { s.Memory = schema.Memory{Dir: "mem", ToolExperienceChars: 800} }},
		{"memory.tool_experience_chars", func(s *schema.Spec) { s.Memory = schema.Memory{Dir: "mem", MemoryChars: 8000} }},
		{"toolsets.core.max_result_bytes", func(s *schema.Spec) { s.Toolsets["core"] = schema.Toolset{Kind: "builtin"} }},
		{"scene_graph.max_brief_refs", func(s *schema.Spec) { s.SceneGraph.MaxBriefRefs = 0 }},
	} {
		f := newFixture(t, toolResp("done"))
		tc.edit(f.spec)
		h, err := engine.New(t.Context(), f.spec, f.options(t))
		if err == nil {
			_ = h.Close()
		}
		if want := tc.path + " is 0: it must be positive"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s left 0: New err %v, want %q", tc.path, err, want)
		}
	}
	// Without a memory dir the memory bounds are not read.
	f := newFixture(t, toolResp("done"))
	f.spec.Memory = schema.Memory{}
	f.harness(t)
}
