package chaos

import (
	"errors"
	"flag"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The chaos run's knobs: `make chaos N=1000` sets THEA_CHAOS_N; a failure
// prints its seed, and THEA_CHAOS_SEED=<seed> THEA_CHAOS_N=1 reruns it alone.
var (
	chaosN       = flag.Int("chaos.n", 0, "schedules to run (default $THEA_CHAOS_N, else 200, 40 under -short)")
	chaosSeed    = flag.Uint64("chaos.seed", 0, "first seed (default $THEA_CHAOS_SEED, else 1)")
	chaosWorkers = flag.Int("chaos.workers", 8, "episodes run at once")
)

func chaosParams(t *testing.T) (first uint64, n int) {
	t.Helper()
	n = *chaosN
	if n == 0 {
		n = 200
		if testing.Short() {
			n = 40
		}
		if v := os.Getenv("THEA_CHAOS_N"); v != "" {
			var err error
			if n, err = strconv.Atoi(v); err != nil || n < 1 {
				t.Fatalf("THEA_CHAOS_N=%q: want a positive count", v)
			}
		}
	}
	first = *chaosSeed
	if first == 0 {
		first = 1
		if v := os.Getenv("THEA_CHAOS_SEED"); v != "" {
			var err error
			if first, err = strconv.ParseUint(v, 10, 64); err != nil {
				t.Fatalf("THEA_CHAOS_SEED=%q: want a seed", v)
			}
		}
	}
	return first, n
}

// TestChaos runs n seeded fault schedules, each a fresh session, a few at
// a time (their time is mostly the faults' timeouts), and checks the
// invariants after each; a broken one fails with its seed and schedule.
func TestChaos(t *testing.T) {
	first, n := chaosParams(t)
	t.Setenv(keyEnv, apiKey)
	t.Setenv("THEA_FAULT_SECRET", secret)
	base := t.TempDir()
	seeds := make(chan uint64)
	var (
		mu     sync.Mutex
		failed []uint64
		tally  = map[string]int{}
	)
	start := time.Now()
	var wg sync.WaitGroup
	for range *chaosWorkers {
		wg.Go(func() {
			for seed := range seeds {
				sched := Generate(seed)
				counts, err := runSchedule(t, base, sched)
				mu.Lock()
				for k, v := range counts {
					tally[k] += v
				}
				mu.Unlock()
				if err != nil {
					mu.Lock()
					failed = append(failed, seed)
					mu.Unlock()
					t.Errorf("schedule %s\nbroke an invariant: %v\nrerun it alone: make chaos N=1 SEED=%d", sched, err, seed)
				}
			}
		})
	}
	for seed := first; seed < first+uint64(n); seed++ {
		mu.Lock()
		stop := len(failed) >= 5
		mu.Unlock()
		if stop {
			break
		}
		seeds <- seed
	}
	close(seeds)
	wg.Wait()
	slices.Sort(failed)
	t.Logf("%d schedules (seeds %d–%d, %d at a time) in %s; broke an invariant: %d %v",
		n, first, first+uint64(n)-1, *chaosWorkers, time.Since(start).Round(time.Millisecond), len(failed), failed)
	keys := slices.Sorted(maps.Keys(tally))
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "\n  %-36s %d", k, tally[k])
	}
	t.Logf("what happened:%s", b.String())
}

// runSchedule runs one episode and tallies what happened in it; its files
// are kept when it fails.
func runSchedule(t *testing.T, base string, sched Schedule) (map[string]int, error) {
	e, err := newEpisode(t.Context(), base, sched)
	if err != nil {
		return nil, err
	}
	err = e.run(t.Context())
	if os.Getenv("THEA_CHAOS_TRACE") == "1" {
		t.Logf("seed %d trace:\n%s", sched.Seed, e.trace)
	}
	if err != nil {
		err = fmt.Errorf("%w\n(its files: %s)", err, e.dir)
	}
	return e.rec.Tally(), errors.Join(err, e.release(err == nil))
}

// Generate is deterministic per seed, and seeds differ.
func TestScheduleDeterministic(t *testing.T) {
	if a, b := Generate(7).String(), Generate(7).String(); a != b {
		t.Fatalf("seed 7 gave\n%s\nthen\n%s", a, b)
	}
	if Generate(7).String() == Generate(8).String() {
		t.Fatal("seeds 7 and 8 gave the same schedule")
	}
}
