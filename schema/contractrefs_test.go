package schema_test

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/schema"
)

// contractSpec is a household-like spec; %s is replaced by the move_base
// description and %t by the sim toolset's tools list.
const contractSpec = `name: s
model: {provider: ollama, name: m}
system_prompt: "%p"
embodiment:
  name: base
  limits: {max_translation_m: 1.0, max_rotation_deg: 180, min_clearance_m: 0.3, safety_margin_m: 0.1%x}
toolsets:
  sim: {kind: mcp, command: [sim-server]%t, stop: {tool: stop}}
tools:
  move_base:
    description: "%s"
    physical: true
  rotate: {physical: true}
  get_clearance: {hidden: true}
  stop: {hidden: true}
hooks:
  pre:
    - name: clamp_translation
      when: tool.name == 'move_base'
      action: clamp
      clamp: {arg: distance_m, min: "0", max: "limits.max_translation_m"}
%h`

const closedTools = ", tools: [move_base, rotate, open_drawer, get_clearance, stop]"

const clampRotation = `    - name: clamp_rotation
      when: tool.name == 'rotate'
      action: clamp
      clamp: {arg: degrees, min: "-limits.max_rotation_deg", max: "limits.max_rotation_deg"}
`

func contractYAML(prompt, desc, tools, extraLimit, hooks string) string {
	return strings.NewReplacer("%p", prompt, "%s", desc, "%t", tools, "%x", extraLimit, "%h", hooks).Replace(contractSpec)
}

// warnings loads src and returns its warnings by path; the load must pass.
func warnings(t *testing.T, src string) map[string]schema.Diagnostic {
	t.Helper()
	s, diags := loadYAML(t, src)
	if s == nil {
		t.Fatalf("the spec did not load: %v\n%s", diags, src)
	}
	out := map[string]schema.Diagnostic{}
	for _, w := range s.Warnings {
		if !w.Warning {
			t.Errorf("not a warning: %v", w)
		}
		if _, dup := out[w.Path]; dup {
			t.Errorf("two warnings at %s: %v and %v", w.Path, out[w.Path], w)
		}
		out[w.Path] = w
	}
	return out
}

func TestDescriptionNamesAToolNotOffered(t *testing.T) {
	cases := []struct {
		name, prompt, desc, tools string
		// want maps a path to a part of its warning; every other
		// description or prompt warning fails the case.
		want map[string]string
	}{{
		name: "a hidden tool, as the household's move_base said it",
		desc: "Moves the base. Check get_clearance first; if blocked, move another way.",
		want: map[string]string{"tools.move_base.description": "names get_clearance, a hidden tool: the model is not offered it"},
	}, {
		name: "a hidden tool qualified by its toolset",
		desc: "Reads sim.get_clearance before moving.", tools: closedTools,
		want: map[string]string{"tools.move_base.description": "names sim.get_clearance, a hidden tool"},
	}, {
		name: "a hidden tool in the system prompt", prompt: "Never call get_clearance yourself.",
		want: map[string]string{"system_prompt": "names get_clearance, a hidden tool"},
	}, {
		name: "a tool no toolset offers, where a tool's name stands", tools: closedTools,
		desc: "Call measure_gap first, or use open_drawer(name).",
		want: map[string]string{"tools.move_base.description": "names measure_gap as a tool, but no toolset offers it"},
	}, {
		name: "offered tools, arguments and object names are not tools", tools: closedTools,
		desc: "Moves by distance_m metres toward top_drawer; call open_drawer first, then rotate. See the observation's clearance.",
	}, {
		name: "an open toolset may offer it: only validate --live can tell",
		desc: "Call measure_gap first.",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := warnings(t, contractYAML(c.prompt, c.desc, c.tools, "", clampRotation))
			for path, d := range w {
				if path != "system_prompt" && !strings.HasSuffix(path, ".description") {
					continue
				}
				want, ok := c.want[path]
				if !ok || !strings.Contains(d.Message, want) {
					t.Errorf("unexpected warning: %v (want %q)", d, want)
				}
			}
			for path, want := range c.want {
				d, ok := w[path]
				if !ok {
					t.Errorf("no warning at %s, want %q", path, want)
					continue
				}
				// At the field's value: line 3 is the system prompt, 11 the description.
				if line := map[string]int{"system_prompt": 3, "tools.move_base.description": 11}[path]; d.Pos.Line != line {
					t.Errorf("warning at %v, want line %d", d.Pos, line)
				}
			}
		})
	}
}

func TestProfileLimitNoHookEnforces(t *testing.T) {
	limitWarnings := func(t *testing.T, extra, hooks string) map[string]schema.Diagnostic {
		t.Helper()
		out := map[string]schema.Diagnostic{}
		for p, d := range warnings(t, contractYAML("", "Moves the base.", closedTools, extra, hooks)) {
			if strings.HasPrefix(p, "embodiment.limits.") {
				out[p] = d
			}
		}
		return out
	}
	// The household as it was: the translation is clamped, the rotation
	// limit the profile states is not.
	w := limitWarnings(t, "", "")
	d, ok := w["embodiment.limits.max_rotation_deg"]
	if len(w) != 1 || !ok || !strings.Contains(d.Message, "no pre-hook rule reads limits.max_rotation_deg") {
		t.Fatalf("want one warning at max_rotation_deg, got %v", w)
	}
	if d.Pos.Line != 6 || d.Pos.Col < 40 {
		t.Errorf("warning at %v, want line 6 at the limit's value", d.Pos)
	}
	if w := limitWarnings(t, "", clampRotation); len(w) != 0 {
		t.Errorf("a clamped rotation still warns: %v", w)
	}
	// A limit the spec declares is there for a rule to read.
	w = limitWarnings(t, ", max_force_n: 20", clampRotation)
	if _, ok := w["embodiment.limits.max_force_n"]; len(w) != 1 || !ok {
		t.Errorf("want one warning at max_force_n, got %v", w)
	}
	// Hooks that read no limit: the profile only informs, nothing warns.
	noLimits := strings.Replace(contractYAML("", "Moves the base.", closedTools, ", max_force_n: 20", ""), `max: "limits.max_translation_m"`, `max: "1"`, 1)
	for p, d := range warnings(t, noLimits) {
		if strings.HasPrefix(p, "embodiment.limits.") {
			t.Errorf("hooks that read no limit still warn: %v", d)
		}
	}
}
