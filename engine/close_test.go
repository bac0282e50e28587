package engine_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// badCloseSet is a toolset whose Close fails (err) or panics.
type badCloseSet struct {
	fakeSet
	err   error
	panic bool
}

func (s *badCloseSet) Close() error {
	s.closes.Add(1)
	if s.panic {
		panic("close bug")
	}
	return s.err
}

// Close releases every toolset even if one fails or panics, and reports it;
// later calls return the same error and close nothing twice.
func TestCloseReleasesEveryToolsetDespiteAFailure(t *testing.T) {
	for _, bad := range []*badCloseSet{{err: errors.New("kill failed")}, {panic: true}} {
		f := newFixture(t, toolResp("x"))
		f.spec.Toolsets["z_bad"] = schema.Toolset{Kind: "bad", MaxResultBytes: 1 << 20}
		opts := f.options(t)
		var badCloses atomic.Int64
		must(t, opts.Components.Add(engine.ToolsetKind{Name: "bad", InProcess: func(_ context.Context, cfg engine.ToolsetConfig) (engine.Toolset, error) {
			bad.fakeSet = fakeSet{name: cfg.Name, closes: &badCloses}
			return bad, nil
		}}))
		h, err := engine.New(t.Context(), f.spec, opts)
		if err != nil {
			t.Fatal(err)
		}
		err1, err2 := h.Close(), h.Close()
		if err1 == nil || err2 == nil || err1.Error() != err2.Error() || !strings.Contains(err1.Error(), "z_bad") {
			t.Fatalf("Close = %v, then %v: want the bad toolset's error both times", err1, err2)
		}
		if f.closes.Load() != 1 || badCloses.Load() != 1 {
			t.Fatalf("closes: good %d, bad %d; want each toolset closed exactly once", f.closes.Load(), badCloses.Load())
		}
	}
}
