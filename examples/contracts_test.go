package examples_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/internal/testutil"
)

// TestEverySpecWarnsNothing keeps the examples users copy free of the
// warnings validate gives for a contract the run does not keep (a
// description naming a tool the model is not offered, a profile limit no
// hook enforces) and every other warning.
func TestEverySpecWarnsNothing(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasPrefix(filepath.Base(path), "spec.") {
			return err
		}
		t.Run(path, func(t *testing.T) {
			for _, w := range load(t, path).Warnings {
				t.Errorf("%s", w)
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The household profile says max rotation 180°: its clamp_rotation hook is
// what holds a turn to it, and without the hook validate says so at the
// limit.
func TestHouseholdRotationLimitIsEnforced(t *testing.T) {
	spec := testutil.ExampleCopy(t, filepath.Join("household", "spec.cue"))
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	if !strings.Contains(src, `min: "-limits.max_rotation_deg"`) {
		t.Fatal("the household spec has no clamp_rotation hook reading limits.max_rotation_deg")
	}
	// Without the hook's reads of the limit, nothing holds a turn to it.
	src = strings.NewReplacer(`min: "-limits.max_rotation_deg"`, `min: "-360"`, `max: "limits.max_rotation_deg"`, `max: "360"`).Replace(src)
	if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range load(t, spec).Warnings {
		got = append(got, w.Message)
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "embodiment.limits.max_rotation_deg: ") || !strings.Contains(got[0], "no pre-hook rule reads limits.max_rotation_deg") {
		t.Errorf("want one warning at embodiment.limits.max_rotation_deg, got %q", got)
	}
}
