package world

import (
	"os/exec"
	"strings"
	"testing"
)

// The runtime values are the spec language's neither in Go nor in CUE:
// world, and the run log that names them, link no CUE package and not
// schema (the run log once linked 96 CUE packages to name Observation).
func TestNoSpecLanguageInTheWorld(t *testing.T) {
	const module = "github.com/thea-harness/thea/"
	for _, pkg := range []string{module + "world", module + "runlog"} {
		out, err := exec.CommandContext(t.Context(), "go", "list", "-deps", pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps %s: %v\n%s", pkg, err, out)
		}
		deps := strings.Fields(string(out))
		if len(deps) < 2 {
			t.Fatalf("go list -deps %s listed %v: not the import graph", pkg, deps)
		}
		for _, dep := range deps {
			if strings.HasPrefix(dep, "cuelang.org/") || dep == module+"schema" {
				t.Errorf("%s links %s", pkg, dep)
			}
		}
	}
}
