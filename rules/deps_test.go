package rules

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoSpecLanguage: the rule language links neither the spec language
// (schema) nor CUE, so a package that only evaluates rules (a toolset's expr
// plan) does not carry them. It asks the go command, which sees every
// dependency, the standard library's and the module's alike.
func TestNoSpecLanguage(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to list the dependencies: %v", err)
	}
	out, err := exec.CommandContext(t.Context(), gobin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps listed only %v", deps)
	}
	for _, d := range deps {
		if strings.HasPrefix(d, "cuelang.org/") || d == "github.com/thea-harness/thea/schema" || strings.HasPrefix(d, "github.com/thea-harness/thea/schema/") {
			t.Errorf("rules depends on %s: the rule language must not know the spec language", d)
		}
	}
}
