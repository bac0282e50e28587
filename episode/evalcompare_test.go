package episode_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/thea-harness/thea/episode"
	"github.com/thea-harness/thea/runlog"
)

const slip = "verdict_failure:pick_up"

// outcome is a final-answer episode of seed, a success or a slipped grasp.
func outcome(seed uint64, success bool) episode.Outcome {
	o := episode.Outcome{Seed: seed, Turns: 1, Reason: runlog.DoneFinal, Success: success}
	if !success {
		o.FailureKind = slip
	}
	return o
}

func result(eps []episode.Outcome) *episode.EvalResult {
	r := &episode.EvalResult{Spec: "s", SpecDigest: "sha256:" + strings.Repeat("0", 64), Instruction: "go", Episodes: eps}
	r.Summarize()
	return r
}

// pairedRuns are two evaluations of the same seeds whose outcomes pair up
// as p says.
func pairedRuns(p episode.Pairs) (a, b *episode.EvalResult) {
	var ea, eb []episode.Outcome
	seed := uint64(0)
	add := func(n int, sa, sb bool) {
		for range n {
			seed++
			ea, eb = append(ea, outcome(seed, sa)), append(eb, outcome(seed, sb))
		}
	}
	add(p.Both, true, true)
	add(p.OnlyA, true, false)
	add(p.OnlyB, false, true)
	add(p.Neither, false, false)
	return result(ea), result(eb)
}

// runOf is an evaluation of seeds from..from+n-1, the first k successes.
func runOf(from uint64, n, k int) *episode.EvalResult {
	var eps []episode.Outcome
	for i := range n {
		eps = append(eps, outcome(from+uint64(i), i < k))
	}
	return result(eps)
}

func TestCompareVerdicts(t *testing.T) {
	opt := episode.DefaultCompareOptions()
	for _, tc := range []struct {
		name    string
		a, b    *episode.EvalResult
		paired  bool
		verdict string
		worse   bool
	}{
		{"paired better", runOf(1, 100, 45), runOf(1, 100, 60), true, episode.Better, false},
		{"paired worse", runOf(1, 100, 60), runOf(1, 100, 45), true, episode.Worse, true},
		// The same 100 seeds, the same outcomes: the paired interval is
		// narrow, well within ±5 points.
		{"paired same", runOf(1, 100, 45), runOf(1, 100, 45), true, episode.Same, false},
		// The same rates on other seeds: ±14 points, too few to tell.
		{"unpaired underpowered", runOf(1, 100, 45), runOf(101, 100, 45), false, episode.Underpowered, false},
		{"unpaired worse", runOf(1, 200, 120), runOf(1001, 200, 80), false, episode.Worse, true},
		// Half the seeds shared: not paired, compared as independent.
		{"partial overlap", runOf(1, 100, 45), runOf(51, 100, 45), false, episode.Underpowered, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := episode.Compare(tc.a, tc.b, opt)
			if err != nil {
				t.Fatal(err)
			}
			s := c.Rates[0]
			if c.Paired != tc.paired || c.Verdict != tc.verdict || s.Verdict != tc.verdict || c.Worse != tc.worse {
				t.Errorf("paired %v, verdict %s (success %s), worse %v; want %v, %s, %v\n%+v", c.Paired, c.Verdict, s.Verdict, c.Worse, tc.paired, tc.verdict, tc.worse, c)
			}
			wantTest := episode.TestFisher
			if tc.paired {
				wantTest = episode.TestMcNemar
			}
			if s.Test != wantTest || (s.Pairs != nil) != tc.paired {
				t.Errorf("test %s, pairs %+v; want %s", s.Test, s.Pairs, wantTest)
			}
			if (s.SeedsNeeded > 0) != (s.Verdict == episode.Underpowered) {
				t.Errorf("verdict %s with seeds needed %d", s.Verdict, s.SeedsNeeded)
			}
		})
	}
	c, err := episode.Compare(runOf(1, 100, 45), runOf(51, 100, 45), opt)
	if err != nil {
		t.Fatal(err)
	}
	if c.SharedSeeds != 50 {
		t.Errorf("partial overlap: %d shared seeds, want 50", c.SharedSeeds)
	}
	if want := episode.SeedsNeededUnpaired(0.45, 0.1, 0.05, 0.8); c.Rates[0].SeedsNeeded != want {
		t.Errorf("seeds needed %d, want %d", c.Rates[0].SeedsNeeded, want)
	}
}

// Where the two methods disagree the verdict claims nothing: Cavo et al.'s
// table has a paired interval below 0 (−11.9 to −0.5 points) but an exact
// McNemar p of 0.0525.
func TestCompareTestAndIntervalMustAgree(t *testing.T) {
	a, b := pairedRuns(episode.Pairs{Both: 59, OnlyB: 6, OnlyA: 16, Neither: 80})
	c, err := episode.Compare(a, b, episode.DefaultCompareOptions())
	if err != nil {
		t.Fatal(err)
	}
	s := c.Rates[0]
	if !c.Paired || s.Interval.High >= 0 || s.P < 0.05 || s.Verdict != episode.Underpowered || c.Worse {
		t.Errorf("%+v", s)
	}
	if want := episode.SeedsNeededPaired(22.0/161, 0.1, 0.05, 0.8); s.SeedsNeeded != want {
		t.Errorf("seeds needed %d, want %d (22 of 161 pairs discordant)", s.SeedsNeeded, want)
	}
	// At alpha 0.06 the test agrees with the interval... which is then at
	// 94 %, and still below 0: worse.
	opt := episode.DefaultCompareOptions()
	opt.Alpha = 0.06
	if c, err = episode.Compare(a, b, opt); err != nil || c.Verdict != episode.Worse || !c.Worse {
		t.Errorf("alpha 0.06: %v %+v", err, c)
	}
}

// Swapping A and B mirrors every interval, keeps every p-value, and turns
// better into worse and back; same and underpowered stay.
func TestCompareSwapFlipsVerdict(t *testing.T) {
	flip := map[string]string{episode.Better: episode.Worse, episode.Worse: episode.Better, episode.Same: episode.Same, episode.Underpowered: episode.Underpowered}
	seen := map[string]bool{}
	for _, p := range []episode.Pairs{
		{Both: 45, OnlyB: 15, Neither: 40}, {Both: 30, OnlyA: 3, OnlyB: 9, Neither: 58}, {Both: 50, Neither: 50},
		{Both: 59, OnlyB: 6, OnlyA: 16, Neither: 80}, {Both: 5, OnlyA: 1, OnlyB: 2, Neither: 2}, {OnlyA: 20}, {Both: 1000, OnlyA: 2, OnlyB: 1},
	} {
		a, b := pairedRuns(p)
		for _, pair := range [][2]*episode.EvalResult{{a, b}, {a, runOf(5000, 120, 40)}} {
			ab, err1 := episode.Compare(pair[0], pair[1], episode.DefaultCompareOptions())
			ba, err2 := episode.Compare(pair[1], pair[0], episode.DefaultCompareOptions())
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if len(ab.Rates) != len(ba.Rates) || ab.Worse == ba.Worse && (ab.Worse || ba.Worse) {
				t.Fatalf("%+v: rates %d and %d, worse %v and %v", p, len(ab.Rates), len(ba.Rates), ab.Worse, ba.Worse)
			}
			for i, x := range ab.Rates {
				y := ba.Rates[i]
				seen[x.Verdict] = true
				if y.Verdict != flip[x.Verdict] || !near(y.P, x.P, 1e-12) || !near(y.Interval.Low, -x.Interval.High, 1e-12) || !near(y.Interval.High, -x.Interval.Low, 1e-12) {
					t.Errorf("%+v, %s: A/B %s p %v %+v; B/A %s p %v %+v", p, x.Name, x.Verdict, x.P, x.Interval, y.Verdict, y.P, y.Interval)
				}
			}
		}
	}
	for _, v := range []string{episode.Better, episode.Worse, episode.Same, episode.Underpowered} {
		if !seen[v] {
			t.Errorf("no case gave %s", v)
		}
	}
}

// A failure kind more frequent in B is worse, whatever the success rate
// does; the table says so in words.
func TestCompareFailureKindsAndTable(t *testing.T) {
	a := runOf(1, 100, 45)
	eps := append([]episode.Outcome(nil), runOf(1, 100, 40).Episodes...)
	for i := 40; i < 60; i++ {
		eps[i].Reason, eps[i].FailureKind = runlog.DoneMaxTurns, string(runlog.DoneMaxTurns)
	}
	b := result(eps)
	c, err := episode.Compare(a, b, episode.DefaultCompareOptions())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range c.Rates {
		got = append(got, d.Name+" "+d.Verdict)
	}
	if s := strings.Join(got, ", "); s != "success underpowered, max_turns worse, verdict_failure:pick_up better" || !c.Worse {
		t.Errorf("rates: %s (worse %v)", s, c.Worse)
	}
	var out bytes.Buffer
	if err := c.WriteTable(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"95% INTERVAL", "p (McNemar)", "45/100 45.0% [35.6, 54.8]", "40/100 40.0%", "-5.0 pts",
		"Paired by seed: 100 seeds (both succeeded 40, only A 5, only B 0, neither 55)",
		"Success: underpowered", "seeds would see a difference of 10.0 pts with power 0.8", "B is WORSE than A in some rate.",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

// Episodes whose success held at reset are left out of every rate; when
// paired, a seed flagged in either run leaves both out.
func TestCompareLeavesOutSuccessAtReset(t *testing.T) {
	a, b := runOf(1, 100, 45), runOf(1, 100, 60)
	for i := range 10 {
		a.Episodes[i].SuccessAtReset = true
	}
	b.Episodes[10].SuccessAtReset = true
	c, err := episode.Compare(a, b, episode.DefaultCompareOptions())
	if err != nil {
		t.Fatal(err)
	}
	if s := c.Rates[0]; c.AtReset != 11 || s.A.Of != 89 || s.A.Count != 34 || s.B.Count != 49 {
		t.Errorf("at reset %d, A %v, B %v: want 11 left out, 34/89 and 49/89", c.AtReset, s.A, s.B)
	}
	// Not paired: each run's own flagged episodes are left out.
	c, err = episode.Compare(a, runOf(201, 100, 60), episode.DefaultCompareOptions())
	if err != nil {
		t.Fatal(err)
	}
	if s := c.Rates[0]; c.Paired || c.AtReset != 10 || s.A.Of != 90 || s.B.Of != 100 {
		t.Errorf("at reset %d, A %v, B %v", c.AtReset, s.A, s.B)
	}
}

func TestCompareOptionsRefused(t *testing.T) {
	a := runOf(1, 10, 5)
	for _, o := range []episode.CompareOptions{
		{Alpha: 0, Margin: 0.05, Detect: 0.1, Power: 0.8},
		{Alpha: 0.05, Margin: -0.1, Detect: 0.1, Power: 0.8},
		{Alpha: 0.05, Margin: 0.05, Detect: 0, Power: 0.8},
		{Alpha: 0.05, Margin: 0.05, Detect: 0.1, Power: 1},
	} {
		if _, err := episode.Compare(a, a, o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}
