package schema

import (
	"strings"
	"testing"
)

func ruleSpec(pre []PreHook, post []PostHook) *Spec {
	return &Spec{
		Tools: map[string]ToolContract{
			"move_base": {Tags: []string{"base_motion", "physical"}},
			"pick_up":   {Tags: []string{"manipulation"}, Check: "after.held == args.object_name"},
		},
		Hooks: Hooks{Pre: pre, Post: post},
	}
}

func TestCompileRulesErrors(t *testing.T) {
	tests := []struct {
		name     string
		pre      []PreHook
		post     []PostHook
		tools    map[string]ToolContract // replaces the default contracts when set
		path     string
		line     int
		col      int
		contains string
	}{
		{
			name: "unknown field of clearance",
			pre:  []PreHook{{Name: "c", Action: "block", Rule: "clearance.frnt < 0.3"}},
			path: "hooks.pre[0].rule", line: 1, col: 11, contains: "frnt",
		},
		{
			name: "when must be bool",
			pre:  []PreHook{{Name: "c", Action: "block", When: "tool.name"}},
			path: "hooks.pre[0].when", contains: "expected bool",
		},
		{
			name: "clamp max must be numeric",
			pre: []PreHook{{Name: "c", Action: "clamp",
				Config: testClamp{Arg: "distance_m", Max: "tool.name"}}},
			path: "hooks.pre[0].clamp.max", contains: "expected float64",
		},
		{
			name: "syntax error on line two",
			pre:  []PreHook{{Name: "c", Action: "allow", Rule: "true &&\n  (1 <"}},
			path: "hooks.pre[0].rule", line: 2, contains: "",
		},
		{
			name: "rewrite value unknown field",
			pre: []PreHook{{Name: "r", Action: "rewrite",
				Config: testRewrite{"distance_m": "limits.max_translatoin_m"}}},
			path: "hooks.pre[0].rewrite.distance_m", line: 1, contains: "max_translatoin_m",
		},
		{
			name: "unknown tag",
			pre:  []PreHook{{Name: "c", Action: "block", When: "'base_moton' in tool.tags"}},
			path: "hooks.pre[0].when", line: 1, col: 1, contains: `unknown tool tag "base_moton"`,
		},
		{
			name: "unknown tool name",
			pre:  []PreHook{{Name: "c", Action: "block", When: "tool.name == 'move_bsae'"}},
			path: "hooks.pre[0].when", line: 1, col: 14, contains: `tool "move_bsae": no tool contract names it`,
		},
		{
			name: "unknown tool name in list",
			post: []PostHook{{Name: "n", Action: "note", When: "tool.name in ['pick_up', 'plcae']"}},
			path: "hooks.post[0].when", line: 1, col: 26, contains: `tool "plcae"`,
		},
		{
			name:  "check reads an unknown field",
			tools: map[string]ToolContract{"pick_up": {Check: "after.hold == args.object_name"}},
			path:  "tools.pick_up.check", line: 1, col: 7, contains: "hold",
		},
		{
			name:  "check must be bool",
			tools: map[string]ToolContract{"pick_up": {Check: "after.held"}},
			path:  "tools.pick_up.check", contains: "expected bool",
		},
		{
			name:  "check cannot read clearance env",
			tools: map[string]ToolContract{"pick_up": {Check: "clearance.front > 0"}},
			path:  "tools.pick_up.check", line: 1, contains: "clearance",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ruleSpec(tt.pre, tt.post)
			if tt.tools != nil {
				s.Tools = tt.tools
			}
			r, errs := CompileRules(s)
			if r != nil {
				t.Errorf("Rules = %v, want nil on errors", r)
			}
			if len(errs) != 1 {
				t.Fatalf("got %d errors %v, want 1", len(errs), errs)
			}
			e := errs[0]
			if e.Path != tt.path {
				t.Errorf("Path = %q, want %q", e.Path, tt.path)
			}
			if tt.line != 0 && e.Line != tt.line {
				t.Errorf("Line = %d, want %d (%v)", e.Line, tt.line, e)
			}
			if tt.col != 0 && e.Col != tt.col {
				t.Errorf("Col = %d, want %d (%v)", e.Col, tt.col, e)
			}
			if !strings.Contains(e.Message, tt.contains) {
				t.Errorf("Message = %q, want it to contain %q", e.Message, tt.contains)
			}
		})
	}
}

func TestCompileRulesReportsEveryError(t *testing.T) {
	s := ruleSpec([]PreHook{
		{Name: "a", Action: "block", When: "tool.nam == 'x'"},
		{Name: "b", Action: "block", Rule: "clearance.frnt < 1"},
	}, []PostHook{{Name: "c", Action: "note", When: "result.sucess"}})
	_, errs := CompileRules(s)
	var paths []string
	for _, e := range errs {
		paths = append(paths, e.Path)
	}
	want := "hooks.pre[0].when hooks.pre[1].rule hooks.post[0].when"
	if got := strings.Join(paths, " "); got != want {
		t.Errorf("error paths = %q, want %q", got, want)
	}
}

func TestCompileRulesValid(t *testing.T) {
	s := ruleSpec([]PreHook{
		{Name: "user", Action: "allow", When: "tool.name == 'pick_up'"},
		{Name: "nav", Action: "block", When: "'base_motion' in tool.tags", Rule: "!clearance.any_admissible", Reason: "boxed in"},
		{Name: "clamp", Action: "clamp", When: "'base_motion' in tool.tags",
			Config: testClamp{Arg: "distance_m", Min: "0", Max: "clearance.toward(args.direction) - limits.safety_margin_m"}},
		{Name: "speed", Action: "rewrite", Config: testRewrite{"speed": "min([args.speed, limits.max_speed_mps])", "mode": "'safe'"}},
		{Name: "ask", Action: "confirm", When: "tool.physical && args.object_name == 'knife'"},
	}, []PostHook{
		{Name: "evaluate", Action: "evaluate", When: "'manipulation' in tool.tags && result.success"},
	})
	r, errs := CompileRules(s)
	if len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
	if len(r.Pre) != 5 || len(r.Post) != 1 {
		t.Fatalf("got %d pre and %d post rules", len(r.Pre), len(r.Post))
	}
	reads := []bool{false, true, true, false, false}
	for i, want := range reads {
		if r.Pre[i].ReadsClearance != want {
			t.Errorf("Pre[%d].ReadsClearance = %v, want %v", i, r.Pre[i].ReadsClearance, want)
		}
	}
	if r.Pre[0].Rule != nil || r.Pre[0].When == nil {
		t.Errorf("empty rule must compile to nil, a when to a program")
	}
	if r.Pre[2].Exprs["clamp.min"] == nil || r.Pre[2].Exprs["clamp.max"] == nil {
		t.Errorf("clamp bounds not compiled")
	}
	if len(r.Pre[3].Exprs) != 2 {
		t.Errorf("rewrite programs = %d, want 2", len(r.Pre[3].Exprs))
	}
	if r.Checks["pick_up"] == nil || r.Checks["move_base"] != nil {
		t.Errorf("checks = %v, want only pick_up", r.Checks)
	}
}

func TestCompileRulesToolNameWithoutContracts(t *testing.T) {
	// With no contracts at all, a tool name cannot be checked and is allowed.
	s := &Spec{Hooks: Hooks{Pre: []PreHook{{Name: "a", Action: "block", When: "tool.name == 'anything'"}}}}
	if _, errs := CompileRules(s); len(errs) != 0 {
		t.Errorf("errors: %v", errs)
	}
}

func TestReadsIdent(t *testing.T) {
	tests := []struct {
		src  string
		want bool
	}{
		{"clearance.front > 1", true},
		{"clearance.toward(args.direction) > 0.3", true},
		{"observation.clearance != nil", false},
		{"args.clearance == 1", false},
		{"tool.physical", false},
	}
	for _, tt := range tests {
		s := &Spec{Hooks: Hooks{Pre: []PreHook{{Name: "a", Action: "block", Rule: tt.src}}}}
		r, errs := CompileRules(s)
		if len(errs) != 0 {
			t.Fatalf("%s: %v", tt.src, errs)
		}
		if got := r.Pre[0].ReadsClearance; got != tt.want {
			t.Errorf("%s: ReadsClearance = %v, want %v", tt.src, got, tt.want)
		}
	}
}

// A tool named in a rule need not have a contract when a toolset provides it:
// builtin tools are known, and an mcp toolset without an allow-list could
// provide anything.
func TestCompileRulesToolNamesFromToolsets(t *testing.T) {
	pre := []PreHook{{Name: "c", Action: "block", When: "tool.name == 'query_user' || tool.name == 'grasp'"}}
	s := ruleSpec(pre, nil)
	s.Toolsets = map[string]Toolset{"core": {Kind: "builtin"}, "arm": {Kind: "mcp", Tools: []string{"grasp"}}}
	c := NewDescriptors()
	if err := c.Register(Descriptor{Kind: KindToolset, Name: "builtin", Provides: func(string, Toolset) ([]string, bool) {
		return []string{"query_user", "notify_user"}, false
	}}); err != nil {
		t.Fatal(err)
	}
	CompileRules := func(s *Spec) (*Rules, []RuleError) { return CompileRulesWith(s, c) }
	if _, errs := CompileRules(s); len(errs) != 0 {
		t.Fatalf("errors %v, want none: query_user is builtin, grasp is in arm's allow-list", errs)
	}
	s.Toolsets["arm"] = Toolset{Kind: "mcp", Tools: []string{"release"}}
	if _, errs := CompileRules(s); len(errs) != 1 || !strings.Contains(errs[0].Message, `"grasp"`) {
		t.Fatalf("errors %v, want one naming grasp", errs)
	}
	s.Toolsets["other"] = Toolset{Kind: "mcp"}
	if _, errs := CompileRules(s); len(errs) != 0 {
		t.Fatalf("errors %v, want none: an mcp toolset without an allow-list may provide grasp", errs)
	}
}
