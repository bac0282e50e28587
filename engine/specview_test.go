package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// What Harness.Spec hands out, and the spec New was given, are the
// caller's to change: the session keeps running what it was built from
// (here max_turns 1, and a physical move its hook refuses).
func TestChangingTheSpecHandedOutChangesNothingThatRuns(t *testing.T) {
	moves := toolResp("", call("move", `{}`))
	f := newFixture(t, moves, moves, toolResp("done"), moves, moves, toolResp("done"))
	f.spec.Safety.MaxTurns = 1
	f.spec.Tools["move"] = schema.ToolContract{Physical: true}
	f.policy.pre = func(cc *engine.CallContext) engine.PreResult {
		if cc.Tool.Contract.Physical {
			return engine.PreResult{Hook: "fence", Reason: "no motion"}
		}
		return engine.PreResult{Allowed: true, Args: cc.Call.Args}
	}
	h := f.harness(t)

	for i, s := range []*schema.Spec{h.Spec(), f.spec} {
		s.Safety.MaxTurns = 50
		s.Tools["move"] = schema.ToolContract{}
		s.Toolsets["core"] = schema.Toolset{Kind: "elsewhere"}
		rep, err := h.Run(t.Context(), "go")
		if err != nil {
			t.Fatal(err)
		}
		if rep.Reason != runlog.DoneMaxTurns {
			t.Errorf("after changing spec %d: the task ended %q, want %q: the change reached the session", i, rep.Reason, runlog.DoneMaxTurns)
		}
		if got := f.tool("move").calls.Load(); got != 0 {
			t.Errorf("after changing spec %d: the physical move ran %d times around its hook", i, got)
		}
	}
	if got := h.Spec(); got.Safety.MaxTurns != 1 || !got.Tools["move"].Physical || got.Toolsets["core"].Kind != "builtin" {
		t.Errorf("Harness.Spec after the changes: max_turns %d, move %+v, core %+v; want what the session was built from",
			got.Safety.MaxTurns, got.Tools["move"], got.Toolsets["core"])
	}
}

// specMutator is a stage that changes, in place, the lists of the spec
// its Turn hands it.
type specMutator struct{}

func (specMutator) Name() string { return "mutate" }
func (specMutator) Run(_ context.Context, t *engine.Turn) error {
	s := t.Spec()
	for i := range s.Files {
		s.Files[i] = "/elsewhere/other.cue"
	}
	for name := range s.Toolsets {
		s.Toolsets[name] = schema.Toolset{Kind: "elsewhere"}
	}
	return nil
}

// Turn.Spec is a copy to read: a stage that changes its lists or maps in
// place changes nothing the session reports or runs.
func TestATurnsSpecIsAStagesOwnCopy(t *testing.T) {
	f := newFixture(t, toolResp("done"), toolResp("done"))
	file := filepath.Join(t.TempDir(), "robot.cue")
	must(t, os.WriteFile(file, []byte("name: \"test\"\n"), 0o600))
	f.spec.Files = []string{file}
	f.spec.Loop.Stages = []string{"task_notes", "mutate", "observe", "decide", "execute", "record"}
	opts := f.options(t)
	must(t, opts.Components.Add(engine.StageKind{Name: "mutate", New: func(*schema.Spec) (engine.Stage, error) { return specMutator{}, nil }}))
	h, err := engine.New(t.Context(), f.spec, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	for range 2 {
		for _, ev := range collect(h.RunStream(t.Context(), "go")) {
			if ev.Kind == runlog.EventTaskStart && !slices.Equal(ev.Episode.SpecFiles, []string{"robot.cue"}) {
				t.Errorf("task_start names the spec files %v, want [robot.cue]: a stage's change reached the session", ev.Episode.SpecFiles)
			}
		}
	}
	if got := h.Spec(); got.Files[0] != file || got.Toolsets["core"].Kind != "builtin" {
		t.Errorf("after the stage's changes the session's spec has files %v, core %+v", got.Files, got.Toolsets["core"])
	}
}
