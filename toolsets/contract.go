package toolsets

import (
	"strings"

	"github.com/thea-harness/thea/schema"
)

// contractFor finds the spec's contract of a tool, written either with the bare
// tool name or qualified by its toolset ("sim.pick_up").
func contractFor(spec *schema.Spec, toolset, tool string) schema.ToolContract {
	if spec == nil {
		return schema.ToolContract{}
	}
	if c, ok := spec.Tools[tool]; ok {
		return c
	}
	return spec.Tools[toolset+"."+tool]
}

// isTool reports whether ref ("observe" or "sim.observe") names tool of toolset.
func isTool(ref, toolset, tool string) bool {
	if ref == "" {
		return false
	}
	if ref == tool {
		return true
	}
	ts, name, ok := strings.Cut(ref, ".")
	return ok && ts == toolset && name == tool
}

// restrict keeps the names allowed by the toolset's Tools list (empty: all) and
// reports listed names the toolset does not have.
func restrict(allowed, have []string) (keep map[string]bool, missing []string) {
	keep = map[string]bool{}
	if len(allowed) == 0 {
		for _, n := range have {
			keep[n] = true
		}
		return keep, nil
	}
	set := map[string]bool{}
	for _, n := range have {
		set[n] = true
	}
	for _, n := range allowed {
		if set[n] {
			keep[n] = true
		} else {
			missing = append(missing, n)
		}
	}
	return keep, missing
}
