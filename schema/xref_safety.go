package schema

import (
	"fmt"
	"slices"
	"strings"
)

// warnf records a problem that does not make the spec invalid.
func (l *loader) warnf(p Pos, path, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if path != "" {
		msg = path + ": " + msg
	}
	l.warns = append(l.warns, Diagnostic{Pos: p, Path: path, Message: msg, Severity: SeverityWarning})
}

// checkSafety checks the motion-safety settings: a stop tool the toolset can
// serve, and warnings for clamps bounded one way and for toolsets serving
// physical tools with no declared stop.
func (l *loader) checkSafety(s *Spec, ok sections) {
	if ok.all("toolsets") {
		for _, name := range sortedKeys(s.Toolsets) {
			ts, p := s.Toolsets[name], "toolsets."+name+".stop"
			if ts.Stop == nil {
				continue
			}
			switch {
			case ts.Kind != "mcp":
				l.errorf(l.pos.lookup(p), p, "only an mcp toolset can declare a stop tool")
			case len(ts.Tools) > 0 && !slices.Contains(ts.Tools, ts.Stop.Tool):
				l.errorf(l.valuePos(p+".tool"), p+".tool", "the stop tool %q is not in toolsets.%s.tools (%s): add it there", ts.Stop.Tool, name, strings.Join(ts.Tools, ", "))
			}
		}
	}
	if ok.all("toolsets", "tools") {
		for _, name := range sortedKeys(s.Toolsets) {
			ts := s.Toolsets[name]
			if ts.Kind != "mcp" || ts.Stop != nil {
				continue
			}
			if phys := physicalToolsOf(s, name); len(phys) > 0 {
				p := "toolsets." + name
				l.warnf(l.pos.lookup(p), p, "serves physical tools (%s) but declares no stop tool: after a timeout or cancellation the harness can only kill and restart the back-end after stop_grace (%s); declare stop: {tool: ...} (e.g. the back-end's cancel_motion)",
					strings.Join(phys, ", "), ts.StopGrace.D())
			}
		}
	}
	if ok.all("hooks") {
		for i, h := range s.Hooks.Pre {
			if h.Clamp == nil || (h.Clamp.Min == "") == (h.Clamp.Max == "") {
				continue
			}
			p := indexPath("hooks.pre", i) + ".clamp"
			missing, given, example := "min", "max", "a negative value (backwards motion) passes unchanged"
			if h.Clamp.Max == "" {
				missing, given, example = "max", "min", "any large value passes unchanged"
			}
			l.warnf(l.pos.lookup(p), p, "the clamp of %q has %s but no %s: %s; bound it both ways (a value the clamp would have to flip in sign is blocked)",
				h.Clamp.Arg, given, missing, example)
		}
	}
}

// physicalToolsOf lists the physical tools toolset name may serve: contracts
// qualified with its name, and bare contracts it lists in tools or that no
// toolset lists (a toolset without tools may serve anything).
func physicalToolsOf(s *Spec, name string) []string {
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
