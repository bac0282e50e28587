package engine

import (
	"fmt"

	"github.com/thea-harness/thea/schema"
)

// checkBounds refuses a spec whose size bounds are not set: schema.Load
// fills each from the schema (the one default), so a 0 here is a spec
// built in Go without them, and the engine keeps no second copy to guess
// with. Each bound is checked where the session would use it.
func checkBounds(s *schema.Spec) error {
	type bound struct {
		path string
		n    int
	}
	bounds := []bound{
		{"context.compaction.tool_result_max_chars", s.Context.Compaction.ToolResultMaxChars},
		{"context.compaction.reasoning_max_chars", s.Context.Compaction.ReasoningMaxChars},
	}
	if s.Memory.Dir != "" {
		bounds = append(bounds,
			bound{"memory.memory_chars", s.Memory.MemoryChars},
			bound{"memory.tool_experience_chars", s.Memory.ToolExperienceChars})
	}
	for _, b := range bounds {
		if b.n <= 0 {
			return fmt.Errorf("%s is %d: it must be positive (schema.Load fills the schema's default)", b.path, b.n)
		}
	}
	return nil
}
