package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An effect reading an argument its tool does not take (of: args.nme for a
// tool whose argument is name) passes the static check of an mcp tool,
// whose arguments only the back-end knows, and is caught by --live against
// the simulator's real input schema, at the expression.
func TestValidateLiveEffectArgs(t *testing.T) {
	dir := copyExample(t, "household")
	if err := os.Mkdir(filepath.Join(dir, "skills"), 0o755); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "spec.yaml")
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	old := `{set: state, of: args.name, to: "'open'"}`
	if !strings.Contains(string(b), old) {
		t.Fatalf("spec.yaml no longer has %q", old)
	}
	src := strings.Replace(string(b), old, `{set: state, of: args.nme, to: "'open'"}`, 1)
	if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := thea(t, "validate", spec); code != 0 {
		t.Fatalf("static validate: exit %d, want 0 (an mcp tool's arguments are known live only)\n%s%s", code, out, errs)
	}
	code, out, _ := thea(t, "validate", "--live", spec)
	// At the argument's name inside the expression, as the static check of
	// a builtin tool reports it, not at the field.
	line := strings.Count(src[:strings.Index(src, "of: args.nme")], "\n") + 1
	lineStart := strings.LastIndex(src[:strings.Index(src, "of: args.nme")], "\n") + 1
	col := strings.Index(src[lineStart:], "nme") + 1
	want := fmt.Sprintf(`spec.yaml:%d:%d: tools.open_drawer.effects[0].of: reads args.nme, but no tool it applies to (open_drawer) has an argument "nme" (did you mean "name"?)`, line, col)
	if code != 1 || !strings.Contains(out, want) {
		t.Fatalf("validate --live: exit %d, want 1 with %q:\n%s", code, want, out)
	}
}
