package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// oldHousehold is the household example's episode as the previous release
// recorded it (commit b35113a, format 2): its tool results lack the text
// the harness tells the model beside a result, which today's Thea records
// and compares.
const oldHousehold = "testdata/episodes/household-b35113a/events.jsonl"

// copyOldHousehold puts the old episode into a copy of today's household
// example as episodes/NAME, and returns the spec.
func copyOldHousehold(t *testing.T, name string, edit func(string) string) string {
	t.Helper()
	spec := householdCopy(t)
	b, err := os.ReadFile(oldHousehold)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(filepath.Dir(spec), "episodes", name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "events.jsonl"), []byte(edit(string(b))), 0o644); err != nil {
		t.Fatal(err)
	}
	return spec
}

// An episode recorded by the previous release of the household example
// replays green on today's Thea: what that Thea did not record is not a
// divergence. The same episode claiming today's format diverges where it
// lacks today's field, and a real change of what the model was given still
// diverges in the old one.
func TestOlderHouseholdEpisodeReplays(t *testing.T) {
	same := func(s string) string { return s }
	spec := copyOldHousehold(t, "old", same)
	code, out, errs := thea(t, "test", "--spec", spec, "old")
	if code != 0 || !strings.Contains(out, "PASS old (10 turns") {
		t.Fatalf("the previous release's episode: exit %d\n%s\n%s", code, out, errs)
	}

	if !strings.Contains(mustRead(t, oldHousehold), `"format":2}`) {
		t.Fatal("the old episode is not of format 2")
	}
	spec = copyOldHousehold(t, "relabelled", func(s string) string { return strings.Replace(s, `"format":2}`, `"format":3}`, 1) })
	code, out, _ = thea(t, "test", "--spec", spec, "relabelled")
	if code != 1 || !strings.Contains(out, "diverged at turn 3, tool_result move_base") || !strings.Contains(out, "text: recorded absent, now") {
		t.Fatalf("the old episode relabelled as today's format: exit %d\n%s", code, out)
	}

	// The recorded clamp let the model's metre through as 0.5 m; today's
	// clamps it the same, so a recording saying 0.6 is a real change.
	spec = copyOldHousehold(t, "changed", func(s string) string {
		return strings.Replace(s, `"args":{"direction":"forward","distance_m":0.5}}`, `"args":{"direction":"forward","distance_m":0.6}}`, 1)
	})
	code, out, _ = thea(t, "test", "--spec", spec, "changed")
	if code != 1 || !strings.Contains(out, "diverged at turn 3, tool_call move_base") || !strings.Contains(out, "args.distance_m: recorded 0.6, now 0.5") {
		t.Fatalf("the old episode with a changed call: exit %d\n%s", code, out)
	}
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
