package layers

import (
	"os/exec"
	"strings"
	"testing"
)

// The thea binary links no test fake, however deep: every package it is
// built from, as the go command resolves them, is production code. (The
// import rule above checks each edge; this checks the binary users get.)
func TestProductLinksNoFake(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("no go command to list the binary's packages: %v", err)
	}
	cmd := exec.CommandContext(t.Context(), goTool, "list", "-deps", module+"cmd/thea")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/thea: %v", err)
	}
	n := 0
	for pkg := range strings.FieldsSeq(string(out)) {
		to, ok := strings.CutPrefix(pkg, module)
		if !ok {
			continue
		}
		n++
		if isTestHelper(to) {
			t.Errorf("the thea binary links %s, a test fake or helper", to)
		}
	}
	if n < 30 {
		t.Fatalf("go list named only %d of the module's packages: %s", n, out)
	}
}
