package schema_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// standIns are the back-end commands the test specs name. Validation
// reports an mcp command that is not found, so TestMain makes a stand-in for
// each in a temporary directory on PATH; they are never started.
var standIns = []string{"sim-server", "base-server", "arm-server", "x"}

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	bin, err := os.MkdirTemp("", "thea-schema-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(bin)
	for _, name := range standIns {
		stub := "#!/bin/sh\n# A stand-in back-end command: validate checks that commands exist; the tests never start them.\nexit 1\n"
		if err := os.WriteFile(filepath.Join(bin, name), []byte(stub), 0o755); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	if err := os.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	return m.Run()
}
