package cli_test

import (
	"os"
	"strings"
	"testing"
)

// The household's back-end descriptions, read live from the simulator (a
// real MCP subprocess), name only tools the model is offered: validate
// --live warns nothing. Hiding navigate_to, which move_base's and pick_up's
// descriptions send the model to, is warned at those tools' contracts.
func TestValidateLiveDescriptionsNameOfferedTools(t *testing.T) {
	spec := householdCopy(t)
	code, out, errs := thea(t, "validate", "--live", spec)
	if code != 0 || strings.Contains(out+errs, "warning") {
		t.Fatalf("the household as shipped: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	old := "\tnavigate_to: {\n"
	if !strings.Contains(string(b), old) {
		t.Fatalf("spec.cue no longer has %q", old)
	}
	if err := os.WriteFile(spec, []byte(strings.Replace(string(b), old, old+"\t\thidden: true\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = thea(t, "validate", "--live", spec)
	all := out + errs
	if code != 0 {
		t.Fatalf("warnings fail the check: exit %d\n%s", code, all)
	}
	for _, want := range []string{
		"warning: tools.move_base.description: the back-end's description of move_base, which the model reads, names navigate_to, a hidden tool",
		"warning: tools.pick_up: the back-end's description of pick_up, which the model reads, names navigate_to, a hidden tool",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("validate --live lacks %q:\n%s", want, all)
		}
	}
	if n := strings.Count(all, "a hidden tool"); n != 2 {
		t.Errorf("want 2 description warnings, got %d:\n%s", n, all)
	}
}
