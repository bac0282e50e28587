package engine_test

import (
	"context"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// clearableSet is a toolset with a body's uncertainty.
type clearableSet struct {
	fakeSet
	cleared *int
}

func (c *clearableSet) ClearUncertain() { *c.cleared++ }

func TestHarnessClearUncertainForwards(t *testing.T) {
	f := newFixture(t)
	f.spec.Toolsets["body"] = schema.Toolset{Kind: "clearable", MaxResultBytes: 1 << 20}
	opts := f.options(t)
	cleared := 0
	must(t, opts.Components.Add(engine.ToolsetKind{Name: "clearable", InProcess: func(_ context.Context, cfg engine.ToolsetConfig) (engine.Toolset, error) {
		return &clearableSet{fakeSet: fakeSet{name: cfg.Name, closes: &f.closes}, cleared: &cleared}, nil
	}}))
	h, err := engine.New(t.Context(), f.spec, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	if n := h.ClearUncertain(); n != 1 || cleared != 1 {
		t.Fatalf("ClearUncertain = %d, cleared %d times; want the one clearable toolset cleared once", n, cleared)
	}
}

// The operator's clear is on the record: between tasks, a safety event that
// opens the next task's stream (and so its run log).
func TestHarnessClearUncertainIsOnTheNextTasksRecord(t *testing.T) {
	f := newFixture(t, toolResp("Done."))
	f.spec.Toolsets["body"] = schema.Toolset{Kind: "clearable", MaxResultBytes: 1 << 20}
	opts := f.options(t)
	cleared := 0
	must(t, opts.Components.Add(engine.ToolsetKind{Name: "clearable", InProcess: func(_ context.Context, cfg engine.ToolsetConfig) (engine.Toolset, error) {
		return &clearableSet{fakeSet: fakeSet{name: cfg.Name, closes: &f.closes}, cleared: &cleared}, nil
	}}))
	h, err := engine.New(t.Context(), f.spec, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	h.ClearUncertain()
	for _, ev := range collect(h.RunStream(t.Context(), "next")) {
		if ev.Kind == runlog.EventSafety && ev.Safety == runlog.SafetyOperatorClear {
			if ev.Task != 1 || !strings.Contains(ev.Text, "the operator cleared the uncertain state of 1 toolset(s)") {
				t.Errorf("the clear's event: task %d, %q", ev.Task, ev.Text)
			}
			return
		}
	}
	t.Fatal("the operator's clear is not on the next task's record")
}
