package schema

import (
	"slices"
	"strings"
)

// PhysicalToolsOf lists the physical tools toolset name may serve:
// contracts qualified with its name, and bare contracts it lists in tools or
// that no toolset lists (a toolset without tools may serve anything).
func (s *Spec) PhysicalToolsOf(name string) []string {
	ts := s.Toolsets[name]
	listed := map[string]bool{}
	for _, other := range s.Toolsets {
		for _, t := range other.Tools {
			listed[t] = true
		}
	}
	var out []string
	for _, tool := range sortedKeys(s.Tools) {
		if !s.Tools[tool].Physical {
			continue
		}
		if set, bare, ok := strings.Cut(tool, "."); ok {
			if set == name {
				out = append(out, bare)
			}
			continue
		}
		if slices.Contains(ts.Tools, tool) || (len(ts.Tools) == 0 && !listed[tool]) {
			out = append(out, tool)
		}
	}
	return out
}
