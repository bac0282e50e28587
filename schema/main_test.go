package schema_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestMain puts testdata/bin on PATH: validation reports an mcp command that
// is not found, and the test specs name stand-in back-ends (sim-server, ...)
// that are never started.
func TestMain(m *testing.M) {
	bin, err := filepath.Abs(filepath.Join("testdata", "bin"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := os.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Exit(m.Run())
}
