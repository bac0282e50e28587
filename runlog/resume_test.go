package runlog_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/thea-harness/thea/runlog"
)

// A run log whose last line was torn by a kill is cut back to its last
// whole line; a whole log is left as it is.
func TestRepairTailDropsATornLine(t *testing.T) {
	for _, tc := range []struct {
		name, log, want string
		dropped         int
	}{
		{"torn", "{\"kind\":\"a\"}\n{\"kind\":\"b\"}\n{\"kin", "{\"kind\":\"a\"}\n{\"kind\":\"b\"}\n", 5},
		{"whole", "{\"kind\":\"a\"}\n", "{\"kind\":\"a\"}\n", 0},
		{"torn first line", "{\"ki", "", 4},
		{"empty", "", "", 0},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, runlog.EventsFile)
		if err := os.WriteFile(path, []byte(tc.log), 0o600); err != nil {
			t.Fatal(err)
		}
		n, err := runlog.RepairTail(dir)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want || n != tc.dropped {
			t.Errorf("%s: left %q (dropped %d), want %q (%d)", tc.name, got, n, tc.want, tc.dropped)
		}
	}
	if n, err := runlog.RepairTail(t.TempDir()); n != 0 || err != nil {
		t.Errorf("no run log: %d, %v", n, err)
	}
}
