package scenegraph

import (
	"slices"
	"strconv"
	"testing"
	"unicode"

	"github.com/thea-harness/thea/internal/testtime"
)

// The Brief, its lines cached, is byte for byte the Brief rendered from
// scratch (refBrief, the rendering before the cache), after every one of
// many thousands of random changes by every public path, with limits that
// vary (hidden refs included) and staleness on and off.
func TestBriefMatchesUncachedRendering(t *testing.T) {
	graphs, steps := 8, 1000
	if testtime.Race {
		// The graph is one goroutine's: the race detector only slows the
		// run (45 s). Five graphs still cover every staleness setting.
		graphs, steps = 5, 400
	}
	for seed := range uint64(graphs) {
		m := newMutator(seed, []int{0, 1, 2, 3, 5}[seed%5])
		g := m.g
		vers := versions{}
		vers.check(t, g, "New")
		for i := range steps {
			did := m.step()
			vers.check(t, g, did)
			if t.Failed() {
				t.Fatalf("seed %d, step %d", seed, i)
			}
			// Two limits a step: the detailed and the coarse line of a
			// ref are cached apart, and either may be stale.
			for range 2 {
				l := m.limits()
				if got, want := g.Brief(l), g.refBrief(l); got != want {
					t.Fatalf("seed %d, step %d (%s), limits %+v: Brief\n%s\nwant\n%s", seed, i, did, l, got, want)
				}
			}
			refs := g.Refs()
			for range 3 {
				ref := pick(m, refs)
				got, err := g.Describe(ref)
				want := g.refRobotLine()
				if ref != RobotRef {
					want = g.refLine(g.nodes[ref])
				}
				if err != nil || got != want {
					t.Fatalf("seed %d, step %d (%s): Describe(%s) = %q, %v, want %q", seed, i, did, ref, got, err, want)
				}
			}
		}
		t.Logf("seed %d: %d refs, %d relations", seed, g.Len(), len(g.rels))
		if g.Len() < 20 {
			t.Errorf("seed %d: only %d refs after %d steps: the run is too tame", seed, g.Len(), steps)
		}
	}
}

// versions holds, for each node, what its lines render and its version
// when last checked: whatever a line renders must not change unless the
// version does. That is the cache's invalidation, checked directly and for
// every node, listed in a Brief or not.
type versions map[*node]struct {
	shown string
	ver   uint64
}

func (vs versions) check(t *testing.T, g *Graph, did string) {
	t.Helper()
	// Each node's relations, from the graph's in its order.
	byNode := map[*node][]*Relation{}
	for _, r := range g.rels {
		s := g.nodes[r.Subject]
		byNode[s] = append(byNode[s], r)
		if h := g.nodes[r.Target]; r.Kind == RelHolding && h != s {
			byNode[h] = append(byNode[h], r)
		}
	}
	for _, n := range g.order {
		// The node's index is its relations in the graph's order.
		rels := byNode[n]
		if !slices.Equal(rels, n.rels) {
			t.Errorf("after %s: %s's relations %v, its index %v", did, n.ref, rels, n.rels)
		}
		shown := rendered(n, rels)
		if old, ok := vs[n]; ok && old.ver == n.ver && old.shown != shown {
			t.Errorf("after %s: %s changed without a new version:\n%s\nwas\n%s", did, n.ref, shown, old.shown)
		}
		vs[n] = struct {
			shown string
			ver   uint64
		}{shown, n.ver}
	}
}

// rendered is every field of n and its relations that a line renders.
func rendered(n *node, rels []*Relation) string {
	b := make([]byte, 0, 256)
	for _, f := range []string{n.ref, n.name, n.class, string(n.kind), n.room, n.state} {
		b = append(append(b, f...), '|')
	}
	b = appendSource(b, n.stateSrc)
	b = appendSource(b, n.seen)
	b = strconv.AppendFloat(b, n.thetaDeg, 'g', -1, 64)
	b = strconv.AppendInt(append(b, "|unconfirmed "...), int64(n.unconfirmed), 10)
	if n.pos != nil {
		b = strconv.AppendFloat(append(b, "|at "...), n.pos.X, 'g', -1, 64)
		b = strconv.AppendFloat(append(b, ' '), n.pos.Y, 'g', -1, 64)
	}
	for _, r := range rels {
		b = append(append(b, '|'), r.Subject+" "+r.Kind+" "+r.Target+" "...)
		b = appendSource(b, r.Source)
	}
	return string(b)
}

func appendSource(b []byte, s Source) []byte {
	b = append(b, s.Kind+"/"+s.Tool+"/"+s.Camera+"/"+s.CallID+"/"...)
	return append(strconv.AppendInt(b, int64(s.Turn), 10), '|')
}

// appendFold's ASCII shortcut folds as the orbit walk does, for every rune.
func TestFoldKeyOfEveryRune(t *testing.T) {
	orbit := func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if got, want := foldKey(string(r)), string(orbit(r)); got != want {
			t.Fatalf("foldKey(%U) = %q, want %q", r, got, want)
		}
	}
	if got := foldKey("Mug\xffK\u212a"); got != "MUG\uFFFDKK" {
		t.Fatalf("foldKey of invalid UTF-8 and a Kelvin sign: %q", got)
	}
}
