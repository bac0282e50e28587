//go:build mujoco && cgo

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/cmd/thea/cli"
	"github.com/thea-harness/thea/episode"
)

// exampleSpec copies examples/mujoco-tabletop into a temporary folder with
// rendering off (the outcome does not depend on it), the friction range
// given and the sim's extra flags, and returns the spec's path.
func exampleSpec(t *testing.T, friction string, extra ...string) string {
	t.Helper()
	src := filepath.Join("..", "..", "examples", "mujoco-tabletop")
	dir := t.TempDir()
	for _, name := range []string{"spec.cue", "episode.yaml"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "spec.cue" {
			s := string(b)
			flags := ""
			for _, f := range extra {
				flags += `, "` + f + `"`
			}
			for old, new := range map[string]string{`, "--render"]`: flags + `]`, `"--friction", "0.1..0.6"`: `"--friction", "` + friction + `"`} {
				if !strings.Contains(s, old) {
					t.Fatalf("the example's spec no longer has %s", old)
				}
				s = strings.Replace(s, old, new, 1)
			}
			b = []byte(s)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "spec.cue")
}

// evalRate runs thea eval over seeds 1..50 and returns the result, with
// each failing seed saved as an episode under failures.
func evalRate(t *testing.T, spec, failures string) episode.EvalResult {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Execute(t.Context(), strings.NewReader(""), &out, &errb,
		[]string{"eval", "--spec", spec, "--seeds", "1..50", "--parallel", "2", "--format", "json", "--save-failures", failures, "Put the mug in the bin"})
	if code != 0 {
		t.Fatalf("thea eval exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	var res episode.EvalResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("thea eval's JSON: %v\n%s", err, out.String())
	}
	return res
}

func successes(res episode.EvalResult) int {
	n := 0
	for _, o := range res.Episodes {
		if o.Success {
			n++
		}
	}
	return n
}

// thea eval of the tabletop over 50 seeds gives a rate strictly between 0
// and 1; every failure is a grasp that slipped (the sim's own account, in
// the saved episode), and the rate moves with the spec's friction range.
func TestEvalRateIsPhysical(t *testing.T) {
	if testing.Short() {
		t.Skip("100 simulated episodes")
	}
	simOnPath(t)
	failures := t.TempDir()
	res := evalRate(t, exampleSpec(t, "0.1..0.6"), failures)
	ok := successes(res)
	if len(res.Episodes) != 50 || ok == 0 || ok == 50 {
		t.Fatalf("%d/%d succeeded: want a rate strictly between 0 and 1", ok, len(res.Episodes))
	}
	for _, o := range res.Episodes {
		if o.Success {
			continue
		}
		if o.FailureKind != "verdict_failure:pick_up" {
			t.Errorf("seed %d failed as %s, want the grasp's verdict", o.Seed, o.FailureKind)
			continue
		}
		b, err := os.ReadFile(filepath.Join(failures, "seed-"+itoa(o.Seed), "events.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "slipped out of the fingers") {
			t.Errorf("seed %d: the saved episode does not say the mug slipped", o.Seed)
		}
	}
	grippy := evalRate(t, exampleSpec(t, "0.3..0.8"), t.TempDir())
	if more := successes(grippy); more <= ok {
		t.Errorf("friction 0.3..0.8: %d/50 succeeded, want more than the %d/50 of 0.1..0.6", more, ok)
	} else {
		t.Logf("friction 0.1..0.6: %d/50; 0.3..0.8: %d/50", ok, more)
	}
}

func itoa(n uint64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
