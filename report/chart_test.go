package report

import (
	"math"
	"testing"

	"github.com/thea-harness/thea/runlog"
)

// The chart's top is the next 1, 2 or 5 × 10^k at or above the largest
// count, for any count a run log holds: a count of 10^18 or more made the
// search for it overflow and loop forever (a report, and the `thea serve`
// request for it, that never ended).
func TestNiceCeilTerminatesForAnyCount(t *testing.T) {
	for _, c := range []struct{ v, want int }{
		{-5, 10}, {0, 10}, {10, 10}, {11, 20}, {199, 200}, {201, 500}, {501, 1000},
		{1e18, 1e18}, {1e18 + 1, 2e18}, {5e18 + 1, math.MaxInt}, {math.MaxInt, math.MaxInt},
	} {
		if got := niceCeil(c.v); got != c.want {
			t.Errorf("niceCeil(%d) = %d, want %d", c.v, got, c.want)
		}
	}
}

// The axis of a chart whose count is the largest int still runs from 0 to
// its top, in order (top*i/4 overflowed).
func TestChartAxisOfTheLargestCount(t *testing.T) {
	for _, total := range []int{10, 1234, math.MaxInt} {
		c := newChart([]point{{turn: 1, c: runlog.TokenCounts{Total: total}}}, nil)
		ticks := c.YTicks
		if len(ticks) != 5 || ticks[0].Pos != float64(c.Bottom) || ticks[4].Pos != float64(c.Top) {
			t.Fatalf("total %d: ticks %+v, want five from the bottom %d to the top %d", total, ticks, c.Bottom, c.Top)
		}
		for i := 1; i < len(ticks); i++ {
			if ticks[i].Pos >= ticks[i-1].Pos {
				t.Errorf("total %d: tick %d at %v, not above tick %d at %v", total, i, ticks[i].Pos, i-1, ticks[i-1].Pos)
			}
		}
	}
}
