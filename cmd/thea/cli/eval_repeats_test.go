package cli_test

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/thea-harness/thea/episode"
)

// evalJSON runs thea eval --format json with args and decodes its result.
func evalJSON(t *testing.T, args ...string) *episode.EvalResult {
	t.Helper()
	code, out, errs := thea(t, append([]string{"eval", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("thea eval %v: exit %d\n%s\n%s", args, code, out, errs)
	}
	r, err := episode.ParseEvalResult("stdout", []byte(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return r
}

// thea eval --repeats K runs each seed K times, repeat r on the back-end
// seed RepeatSeed(seed, r) — the seed itself for repeat 0 — so a repeat
// is reproducible on its own as that seed, and the summary gives pass^k.
func TestEvalRepeatsRunOnTheirOwnSeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("8 episodes")
	}
	spec := householdCopy(t)
	r := evalJSON(t, "--spec", spec, "--seeds", "5..6", "--repeats", "3", "--parallel", "2")
	if len(r.Episodes) != 6 {
		t.Fatalf("%d episodes, want 2 seeds × 3 repeats", len(r.Episodes))
	}
	for i, o := range r.Episodes {
		if want := (struct{ s, r int }{5 + i/3, i % 3}); int(o.Seed) != want.s || o.Repeat != want.r {
			t.Errorf("episodes[%d] is seed %d repeat %d, want %d repeat %d", i, o.Seed, o.Repeat, want.s, want.r)
		}
	}
	p := r.Summary.PassK
	if len(p) != 3 || p[0].Value != r.Summary.SuccessRate || p[2].Seeds != 2 {
		t.Errorf("pass^k %+v with a success rate of %v", p, r.Summary.SuccessRate)
	}
	for _, rep := range []int{0, 2} {
		want := r.Episodes[rep] // seed 5
		alone := evalJSON(t, "--spec", spec, "--seeds", fmt.Sprint(episode.RepeatSeed(5, rep)))
		got := alone.Episodes[0]
		if got.Success != want.Success || got.Turns != want.Turns || got.FailureKind != want.FailureKind || !maps.Equal(got.Verdicts, want.Verdicts) {
			t.Errorf("seed 5 repeat %d: %+v; its back-end seed alone: %+v", rep, want, got)
		}
	}
	code, out, errs := thea(t, "eval", "--spec", spec, "--seeds", "5", "--repeats", "0")
	if code != 2 || !strings.Contains(errs, "--repeats 0: want 1 or more") {
		t.Errorf("--repeats 0: exit %d\n%s\n%s", code, out, errs)
	}
}

// thea eval --success-at-reset EXPR judges EXPR on each episode's first
// observation, before the model's first decision: where it holds the
// episode is flagged and left out of the rate. In the household the mug
// starts on the kitchen counter, never in the drawer the task puts it in.
func TestEvalSuccessAtReset(t *testing.T) {
	if testing.Short() {
		t.Skip("6 episodes")
	}
	spec := householdCopy(t)
	plain := evalJSON(t, "--spec", spec, "--seeds", "1..3")
	for _, tc := range []struct {
		check   string
		flagged int
	}{
		{"after.held == ''", 3},    // nothing is held at reset: "done" from the start
		{"after.held == 'mug'", 0}, // the task's own end is not there yet
		{"after.pose.x > 1000", 0}, // false
	} {
		r := evalJSON(t, "--spec", spec, "--seeds", "1..3", "--success-at-reset", tc.check)
		if r.Summary.AtReset != tc.flagged || r.SuccessAtReset != tc.check {
			t.Errorf("%s: %d flagged, want %d\n%+v", tc.check, r.Summary.AtReset, tc.flagged, r.Summary)
		}
		if tc.flagged == 0 && (r.Summary.Successes != plain.Summary.Successes || r.Summary.SuccessRate != plain.Summary.SuccessRate) {
			t.Errorf("%s flagged nothing but changed the rate: %+v, without it %+v", tc.check, r.Summary, plain.Summary)
		}
		if tc.flagged == 3 && (r.Summary.Successes != 0 || r.Summary.SuccessInterval != episode.Wilson(0, 0)) {
			t.Errorf("%s: every episode flagged, yet %+v", tc.check, r.Summary)
		}
	}
	// A check that fails at run time flags nothing and says so.
	broken := "1 % int(after.pose.x - after.pose.x) == 0"
	r := evalJSON(t, "--spec", spec, "--seeds", "1", "--success-at-reset", broken)
	if r.Summary.AtReset != 0 || !strings.Contains(r.Episodes[0].Error, "success_at_reset check \""+broken+"\"") {
		t.Errorf("%s: %d flagged, error %q", broken, r.Summary.AtReset, r.Episodes[0].Error)
	}
	code, _, errs := thea(t, "eval", "--spec", spec, "--seeds", "1", "--success-at-reset", "after.held ==")
	if code != 2 || !strings.Contains(errs, `--success-at-reset "after.held ==": line 1, column`) {
		t.Errorf("a broken check: exit %d\n%s", code, errs)
	}
}

// thea eval --blind builds blind sessions (what they withhold is proved
// over the wire in models/e2e) and marks the result, so a comparison
// with a seeing run knows which is which, and shards of the two never merge.
func TestEvalBlindIsMarked(t *testing.T) {
	spec := householdCopy(t)
	r := evalJSON(t, "--spec", spec, "--seeds", "1", "--blind")
	if !r.Blind || len(r.Episodes) != 1 {
		t.Errorf("blind %v, %d episodes", r.Blind, len(r.Episodes))
	}
	code, out, errs := thea(t, "eval", "--spec", spec, "--seeds", "1", "--blind")
	if code != 0 || !strings.Contains(out, "  blind: the model was given no observation (thea eval --blind)\n") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
}
