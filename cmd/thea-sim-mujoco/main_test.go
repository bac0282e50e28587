//go:build mujoco && cgo

package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/thea-harness/thea/cmd/thea/cli"
)

// TestMain serves the simulator when the test binary is started under the
// name thea-sim-mujoco (a link the tests put on PATH), so the harness's
// tests run the real back-end in a real subprocess without a second build.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == "thea-sim-mujoco" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	// thea eval, run in process, evaluates the spec in os.Executable()
	// (the bounded evaluator): route it.
	if len(os.Args) > 1 && os.Args[1] == cli.EvaluatorCommand {
		os.Exit(cli.Execute(context.Background(), os.Stdin, os.Stdout, os.Stderr, os.Args[1:]))
	}
	os.Exit(m.Run())
}

// simOnPath links this test binary as thea-sim-mujoco into a directory put
// first on PATH.
func simOnPath(t *testing.T) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(dir, "thea-sim-mujoco")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}
