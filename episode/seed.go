package episode

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/thea-harness/thea/schema"
)

// SeedPlaceholder in a toolset's command line is replaced by the episode's
// seed (thea eval, thea test); without one, the value of a --seed flag is.
const SeedPlaceholder = "{{seed}}"

// WithSeed returns a copy of spec whose subprocess toolsets run with seed:
// every "{{seed}}" in a command line is replaced by it; a command line
// without one has the value of its --seed flag (--seed N or --seed=N)
// replaced. A spec where no command line takes a seed is an error.
//
// The seed is a number, not text: what lands in a command line is its
// decimal digits and nothing else, inside the one argument that held the
// placeholder, so a command that runs a shell ([/bin/sh, -c, "… {{seed}}"])
// can never be handed shell syntax through it.
func WithSeed(spec *schema.Spec, seed uint64) (*schema.Spec, error) {
	digits := strconv.FormatUint(seed, 10)
	s := *spec
	s.Toolsets = maps.Clone(spec.Toolsets)
	took := false
	for _, name := range slices.Sorted(maps.Keys(s.Toolsets)) {
		ts := s.Toolsets[name]
		cmd, ok := seedCommand(ts.CommandLine(), digits)
		if !ok {
			continue
		}
		s.Toolsets[name] = ts.WithCommandLine(cmd)
		took = true
	}
	if !took {
		return nil, errors.New("no toolset command line takes a seed: put " + SeedPlaceholder + " in one (e.g. \"--seed\", \"" + SeedPlaceholder + "\") or give it a --seed flag")
	}
	return &s, nil
}

// ParseSeed reads a seed given as text (thea run --seed, an episode's
// recorded seed): a whole number 0 ≤ N < 2^64 in decimal digits only, no
// sign, space or anything else.
func ParseSeed(s string) (uint64, error) {
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("seed %q: want a whole number (decimal digits only, below 2^64)", s)
	}
	return n, nil
}

// seedCommand substitutes seed into one command line.
func seedCommand(cmd []string, seed string) ([]string, bool) {
	out := slices.Clone(cmd)
	placed := false
	for i, a := range out {
		if strings.Contains(a, SeedPlaceholder) {
			out[i] = strings.ReplaceAll(a, SeedPlaceholder, seed)
			placed = true
		}
	}
	if placed {
		return out, true
	}
	for i, a := range out {
		if a == "--seed" && i+1 < len(out) {
			out[i+1] = seed
			return out, true
		}
		if strings.HasPrefix(a, "--seed=") {
			out[i] = "--seed=" + seed
			return out, true
		}
	}
	return nil, false
}

// SeedRange is a closed range of seeds, "A..B" or a single "A".
type SeedRange struct{ From, To uint64 }

// ParseSeedRange reads "A..B" (A ≤ B) or "A", each a seed as ParseSeed
// reads it.
func ParseSeedRange(s string) (SeedRange, error) {
	a, b, found := strings.Cut(s, "..")
	if !found {
		b = a
	}
	var r SeedRange
	var errA, errB error
	r.From, errA = ParseSeed(a)
	r.To, errB = ParseSeed(b)
	if errA != nil || errB != nil {
		return r, fmt.Errorf("seeds %q: want A..B with whole numbers A ≤ B", s)
	}
	if r.To < r.From {
		return r, fmt.Errorf("seeds %q: the range ends before it starts", s)
	}
	return r, nil
}

// Shard selects the seeds of one of N machines: those whose index in the
// seed list is Index modulo Count.
type Shard struct{ Index, Count int }

// ParseShard reads "i/n" (0 ≤ i < n).
func ParseShard(s string) (Shard, error) {
	var sh Shard
	a, b, ok := strings.Cut(s, "/")
	if !ok {
		return sh, fmt.Errorf("shard %q: want i/n, e.g. 0/4", s)
	}
	if _, err := fmt.Sscan(a, &sh.Index); err != nil {
		return sh, fmt.Errorf("shard %q: want i/n, e.g. 0/4", s)
	}
	if _, err := fmt.Sscan(b, &sh.Count); err != nil {
		return sh, fmt.Errorf("shard %q: want i/n, e.g. 0/4", s)
	}
	if sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count {
		return sh, fmt.Errorf("shard %q: want 0 ≤ i < n", s)
	}
	return sh, nil
}

// Seeds lists the seeds to run: n seeds from r.From (n 0: the whole
// range), then the shard's share of them by index.
func Seeds(r SeedRange, n int, sh Shard) ([]uint64, error) {
	total := r.To - r.From + 1
	if n < 0 {
		return nil, fmt.Errorf("episodes %d: must not be negative", n)
	}
	if n > 0 {
		if uint64(n) > total {
			return nil, fmt.Errorf("episodes %d: the seed range %d..%d holds only %d", n, r.From, r.To, total)
		}
		total = uint64(n)
	}
	if sh.Count == 0 {
		sh = Shard{0, 1}
	}
	var seeds []uint64
	for i := uint64(0); i < total; i++ {
		if int(i%uint64(sh.Count)) == sh.Index {
			seeds = append(seeds, r.From+i)
		}
	}
	return seeds, nil
}
