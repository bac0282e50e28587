package schema

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/rules"
)

// compileWhen compiles one expression as a pre-hook's when.
func compileWhen(t *testing.T, src string) *PreRules {
	t.Helper()
	compiled, errs := CompileRules(&Spec{Hooks: Hooks{Pre: []PreHook{{Name: "h", When: src}}}})
	if len(errs) > 0 {
		t.Fatalf("%s: %v", src, errs)
	}
	return &compiled.Pre[0]
}

// TestBoundedRules: expressions that grow strings without expr's own budget
// noticing (each ends the process with an out-of-memory without the guard)
// fail with an error, and ordinary rules keep working. Without the guard,
// `len(repeat('a', 100000))` succeeds (100 kB is within expr's own limit).
func TestBoundedRules(t *testing.T) {
	env := &CallEnv{Tool: ToolInfo{Name: "pick_up"}, Args: map[string]any{"speed": 2.0, "name": "mug"}}
	tests := []struct {
		src     string
		want    any    // when it returns
		wantErr string // when it fails
	}{
		{src: `len(reduce(1..999, #acc + #acc, 'a')) > 0`, wantErr: "larger than the rule limit"},
		{src: `len(repeat(repeat('a',1e5),1e5)) > 0`, wantErr: "larger than the rule limit"},
		{src: `len(repeat('a', 100000)) > 0`, wantErr: "larger than the rule limit"},
		{src: `len(reduce(1..999, replace(#acc, 'a', 'aa'), 'a')) > 0`, wantErr: "larger than the rule limit"},
		{src: `join(map(1..100000, repeat('a', 1000))) != ''`, wantErr: "memory budget exceeded"},
		{src: `len(toJSON(map(1..100000, repeat('a', 1000)))) > 0`, wantErr: "memory budget exceeded"},
		{src: `len(string(map(1..50, repeat('a', 60000)))) > 0`, wantErr: "larger than the rule limit"},
		{src: `len(reduce(1..200000, upper(repeat('a', 60000)), 'a')) > 0`, wantErr: "memory budget exceeded"},
		{src: `tool.name + '!' == 'pick_up!'`, want: true},
		{src: `args.name + '-' + tool.name == 'mug-pick_up'`, want: true},
		{src: `args.speed + 1 > 2.5`, want: true},
		{src: `1 + 2 == 3`, want: true},
		{src: `len(repeat('ab', 3)) == 6 && toJSON([1]) != '' && join(['a', 'b'], ',') == 'a,b'`, want: true},
		{src: `replace('aXa', 'X', 'b') == 'aba' && string(1) == '1' && toBase64('a') == 'YQ=='`, want: true},
		{src: `len(split('a,b,c', ',')) == 3 && upper('a') == 'A'`, want: true},
	}
	for _, tc := range tests {
		got, err := rules.Run(nil, compileWhen(t, tc.src).When, env)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: got %v, %v; want an error containing %q", tc.src, got, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: got %v, %v; want %v", tc.src, got, err, tc.want)
		}
	}
}

// TestRuleValueBounded: a rewrite may not return a value larger than the
// limit, even one that costs expr little (many references to one string).
func TestRuleValueBounded(t *testing.T) {
	compiled, errs := CompileRules(&Spec{Hooks: Hooks{Pre: []PreHook{{Name: "h", Action: "rewrite",
		Config: testRewrite{"x": `map(1..1000, repeat('a', 1000))`}}}}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if _, err := rules.Run(nil, compiled.Pre[0].Exprs["rewrite.x"], &CallEnv{}); err == nil || !strings.Contains(err.Error(), "rule value is larger") {
		t.Fatalf("got %v, want the value-size error", err)
	}
}

func TestRuleNodeLimit(t *testing.T) {
	src := strings.Repeat("1 + ", rules.MaxNodes) + "1 > 0"
	_, errs := CompileRules(&Spec{Hooks: Hooks{Pre: []PreHook{{Name: "h", When: src}}}})
	if len(errs) == 0 || !strings.Contains(errs[0].Message, "exceeds maximum allowed nodes") {
		t.Fatalf("got %v, want the node limit", errs)
	}
}

// BenchmarkRuleConcat: the cost of the growth guard on a rule that joins
// strings (`+` is routed through the bounded add and charged to the budget).
func BenchmarkRuleConcat(b *testing.B) {
	env := &CallEnv{Tool: ToolInfo{Name: "pick_up"}, Args: map[string]any{"name": "mug"}}
	for _, src := range []string{`args.name + '-' + tool.name == 'mug-pick_up'`, `tool.name == 'pick_up' && args.name == 'mug'`} {
		compiled, errs := CompileRules(&Spec{Hooks: Hooks{Pre: []PreHook{{Name: "h", When: src}}}})
		if len(errs) > 0 {
			b.Fatal(errs)
		}
		machine := rules.NewVM()
		name := "concat"
		if !strings.Contains(src, "+") {
			name = "compare"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if out, err := rules.Run(machine, compiled.Pre[0].When, env); err != nil || out != true {
					b.Fatal(out, err)
				}
			}
		})
	}
}

// TestGuardKeepsTypeChecks: routing string growth through the guard keeps
// expr's load-time type errors and the builtins' accepted argument types.
func TestGuardKeepsTypeChecks(t *testing.T) {
	for _, tc := range []struct{ src, wantErr string }{
		{src: `tool.name + 1 == 'x'`, wantErr: "mismatched types string and int"},
		{src: `tool.name + 'x'`, wantErr: "expected bool, but got string"},
		{src: `toJSON(args)`, wantErr: "expected bool, but got string"},
		{src: `repeat(tool.name, 'x') == ''`, wantErr: "cannot use string as argument"},
		{src: `join(tool.tags, ',') == 'a,b' && join(['a']) == 'a'`},
		{src: `args.a + args.b > 2`},
		{src: `len(tool.name + 'x') > 2`},
	} {
		_, errs := CompileRules(&Spec{Hooks: Hooks{Pre: []PreHook{{Name: "h", When: tc.src}}}})
		switch {
		case tc.wantErr == "" && len(errs) > 0:
			t.Errorf("%s: %v", tc.src, errs)
		case tc.wantErr != "" && (len(errs) == 0 || !strings.Contains(errs[0].Message, tc.wantErr)):
			t.Errorf("%s: got %v, want %q", tc.src, errs, tc.wantErr)
		}
	}
}
