package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/internal/testutil"
)

// The example builds and runs as a program of its own: one wiring call, a
// task against the simulator (the program itself, as the spec's "thea"
// command), its events on stdout, a clean Close and exit status 0.
func TestEmbedProgramRunsATask(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the example: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "embed")
	build := exec.CommandContext(t.Context(), goTool, "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./examples/embed: %v\n%s", err, out)
	}
	// A copy of the example beside a copy of the household world it names
	// (../household/world.yaml), so the run's memory stays out of the tree.
	spec := testutil.ExampleCopy(t, "spec.yaml")
	world, err := os.ReadFile(filepath.Join("..", "household", "world.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	household := filepath.Join(filepath.Dir(filepath.Dir(spec)), "household")
	if err := os.MkdirAll(household, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(household, "world.yaml"), world, 0o644); err != nil {
		t.Fatal(err)
	}

	var stdout, stderr bytes.Buffer
	run := exec.CommandContext(t.Context(), bin, "spec.yaml", "Fetch the mug from the kitchen")
	run.Dir, run.Stdout, run.Stderr = filepath.Dir(spec), &stdout, &stderr
	if err := run.Run(); err != nil {
		t.Fatalf("embed: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	want := []string{
		"call    navigate_to map[target:table]",
		"result  navigate_to ok",
		"verdict navigate_to success (check)",
		"call    pick_up map[object_name:mug]",
		`result  pick_up failed: "too far from the target to grasp (1.10 m, reach 0.80 m); move closer"`,
		`done    final_answer after 3 turns: "I reached the kitchen table, but the mug is out of the arm's reach from there."`,
	}
	out := stdout.String()
	for _, line := range want {
		if !strings.Contains(out, line+"\n") {
			t.Errorf("stdout lacks %q:\n%s\nstderr:\n%s", line, out, stderr.String())
		}
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr is not empty (a warning or a failed Close):\n%s", stderr.String())
	}
}
