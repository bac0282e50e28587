package engine_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// A second task while one runs is rejected with ErrBusy (run with -race).
func TestConcurrentTaskIsBusy(t *testing.T) {
	f := newFixture(t, toolResp("", call("move", `{}`)), toolResp("done"))
	started, release := make(chan struct{}), make(chan struct{})
	f.tool("move").fn = func(context.Context, map[string]any) runlog.Envelope {
		close(started)
		<-release
		return runlog.Envelope{Success: true}
	}
	h := f.harness(t)
	var wg sync.WaitGroup
	var first runlog.Report
	var firstErr error
	wg.Go(func() { first, firstErr = h.Run(t.Context(), "first") })
	<-started
	if _, err := h.Run(t.Context(), "second"); !errors.Is(err, engine.ErrBusy) {
		t.Errorf("concurrent Run error = %v, want ErrBusy", err)
	}
	evs := collect(h.RunStream(t.Context(), "third"))
	if len(evs) != 1 || evs[0].Kind != runlog.EventDone || !strings.Contains(evs[0].Done.Error, "busy") {
		t.Errorf("concurrent RunStream = %+v, want one done naming busy", evs)
	}
	if err := h.ResetSession(); !errors.Is(err, engine.ErrBusy) {
		t.Errorf("ResetSession during a task = %v, want ErrBusy", err)
	}
	close(release)
	wg.Wait()
	if firstErr != nil || first.Reason != runlog.DoneFinal {
		t.Fatalf("first task = %+v, %v", first, firstErr)
	}
}

func TestSessionKeepsAccumulatedUntilReset(t *testing.T) {
	f := newFixture(t, toolResp("one"), toolResp("two"), toolResp("three"))
	h := f.harness(t)
	for _, in := range []string{"fetch the red cup", "now the blue one"} {
		if _, err := h.Run(t.Context(), in); err != nil {
			t.Fatal(err)
		}
	}
	reqs := f.decide.requests()
	if txt := requestText(reqs[1]); !strings.Contains(txt, "fetch the red cup") || !strings.Contains(txt, "New instruction (task 2): now the blue one") {
		t.Fatalf("second task does not share Accumulated context:\n%s", txt)
	}
	must(t, h.ResetSession())
	if _, err := h.Run(t.Context(), "third task"); err != nil {
		t.Fatal(err)
	}
	txt := requestText(f.decide.requests()[2])
	if strings.Contains(txt, "red cup") || strings.Contains(txt, "blue one") {
		t.Fatalf("ResetSession kept Accumulated context:\n%s", txt)
	}
	if !strings.Contains(txt, "<tool move>") || f.closes.Load() != 0 {
		t.Fatalf("ResetSession dropped tools or closed toolsets (closes %d)", f.closes.Load())
	}
}

func TestCloseIsIdempotentAndEndsTheSession(t *testing.T) {
	f := newFixture(t, toolResp("x"))
	f.spec.Toolsets["extra"] = schema.Toolset{Kind: "builtin", MaxResultBytes: 1 << 20}
	f.addTool("extra", "wave", nil)
	h := f.harness(t)
	must(t, h.Close())
	must(t, h.Close())
	if n := f.closes.Load(); n != 2 {
		t.Fatalf("toolsets closed %d times, want each once (2)", n)
	}
	if _, err := h.Run(t.Context(), "go"); !errors.Is(err, engine.ErrClosed) {
		t.Fatalf("Run after Close = %v, want ErrClosed", err)
	}
}

func TestReplanAtDocumentedPoints(t *testing.T) {
	f := newFixture(t, toolResp("", call("move", `{"d":1}`)), toolResp("", call("move", `{"d":2}`)), toolResp("done"))
	polls := 0
	replan := engine.WithPollReplan(func() (string, bool) {
		polls++
		// Poll 1: before decision 1; poll 2: before tool 1; poll 3: before
		// decision 2; poll 4: before tool 2 — revise there.
		if polls == 4 {
			return "bring the plate instead", true
		}
		return "", false
	})
	h := f.harness(t)
	evs := collect(h.RunStream(t.Context(), "bring the mug", replan))
	if !slices.Contains(kinds(evs), runlog.EventReplan) || countDone(evs) != 1 {
		t.Fatalf("events %v", kinds(evs))
	}
	if n := f.tool("move").calls.Load(); n != 1 {
		t.Fatalf("move ran %d times: the call decided before the revision must not run", n)
	}
	last := requestText(f.decide.requests()[2])
	for _, want := range []string{"Revised instruction: bring the plate instead", "Goal: bring the plate instead", "instruction was revised"} {
		if !strings.Contains(last, want) {
			t.Errorf("request after replan lacks %q", want)
		}
	}
	notes, ok := h.LastTaskNotes()
	if !ok || notes.Goal != "bring the plate instead" || len(notes.Timeline) != 2 || !strings.Contains(notes.Timeline[1].Text, "not executed") {
		t.Fatalf("last task notes %+v", notes)
	}
	if polls != 5 {
		t.Fatalf("poll_replan called %d times, want before each of 3 decisions and 2 tool executions", polls)
	}
}

func TestShouldCancelCheckedBeforeDecisionAndTool(t *testing.T) {
	// Checks run before each observation, each model decision and each tool
	// execution (before and after its pre-hooks, which may wait on a person):
	// observe(1) decide(2) tool(3) tool after hooks(4) observe(5) decide(6).
	for _, tc := range []struct {
		name                             string
		cancelAt                         int
		observations, modelCalls, toolRn int
	}{
		{"before first observation", 1, 0, 0, 0},
		{"before first decision", 2, 1, 0, 0},
		{"before first tool", 3, 1, 1, 0},
		{"after the first tool's pre-hooks", 4, 1, 1, 0},
		{"before second observation", 5, 1, 1, 1},
		{"before second decision", 6, 2, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, toolResp("", call("move", `{}`)), toolResp("done"))
			n := 0
			opt := engine.WithShouldCancel(func() bool { n++; return n >= tc.cancelAt })
			evs := collect(f.harness(t).RunStream(t.Context(), "go", opt))
			if got := len(f.decide.requests()); got != tc.modelCalls {
				t.Errorf("model called %d times, want %d", got, tc.modelCalls)
			}
			if got := int(f.tool("move").calls.Load()); got != tc.toolRn {
				t.Errorf("tool ran %d times, want %d", got, tc.toolRn)
			}
			if got := int(f.tool("observe").calls.Load()); got != tc.observations {
				t.Errorf("observed %d times, want %d", got, tc.observations)
			}
			if !slices.Contains(kinds(evs), runlog.EventCancel) || evs[len(evs)-1].Done.Reason != runlog.DoneCancelled || countDone(evs) != 1 {
				t.Fatalf("events %v", kinds(evs))
			}
		})
	}
}

func TestImagesInExactlyOneRequest(t *testing.T) {
	f := newFixture(t,
		toolResp("", call("snap", `{}`)),
		toolResp("", call("move", `{}`)),
		toolResp("done"))
	obsN := 0
	f.tool("observe").fn = func(context.Context, map[string]any) runlog.Envelope {
		obsN++
		return runlog.Envelope{Success: true,
			Value:  map[string]any{"images": []any{map[string]any{"camera": "head", "mime": "image/png", "width": 320, "height": 240}}},
			Images: []world.Image{{MIME: "image/png", Data: []byte{byte(obsN)}}}}
	}
	f.addTool("core", "snap", func(context.Context, map[string]any) runlog.Envelope {
		return runlog.Envelope{Success: true, Images: []world.Image{{Camera: "wrist", MIME: "image/png", Width: 160, Height: 120, Data: []byte("wrist-frame")}}}
	})
	if _, err := f.harness(t).Run(t.Context(), "look"); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for i, req := range f.decide.requests() {
		for _, m := range req.Messages {
			for _, p := range m.Parts {
				if p.Image != nil {
					seen[string(p.Image.Data)]++
				}
			}
		}
		if i == 2 {
			txt := requestText(req)
			if !strings.Contains(txt, "[image: wrist camera, 160x120, consumed at turn 2]") {
				t.Errorf("no placeholder for the consumed tool image:\n%s", txt)
			}
		}
		if n := imageCount(req); i == 1 && n != 2 || i != 1 && n != 1 {
			t.Errorf("request %d carries %d images", i, n)
		}
	}
	if len(seen) != 4 {
		t.Fatalf("distinct images sent: %d, want 3 observations + 1 tool image", len(seen))
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("image %q sent in %d requests, want exactly 1", k, n)
		}
	}
}

func TestObservationUnavailableIsExplicit(t *testing.T) {
	f := newFixture(t, toolResp("done"))
	f.tool("observe").fn = func(context.Context, map[string]any) runlog.Envelope { return runlog.Failure("camera offline") }
	evs := collect(f.harness(t).RunStream(t.Context(), "look"))
	if evs[len(evs)-1].Done.Reason != runlog.DoneFinal {
		t.Fatalf("a failed observation ended the task: %+v", evs[len(evs)-1].Done)
	}
	if txt := requestText(f.decide.requests()[0]); !strings.Contains(txt, "observation unavailable: camera offline") {
		t.Fatalf("request lacks the explicit unavailable line:\n%s", txt)
	}
}

// A body with no camera leaves observe and scene_brief out of the spec.
func TestStageLeftOutIsSkipped(t *testing.T) {
	f := newFixture(t, toolResp("", call("move", `{}`)), toolResp("done"))
	f.spec.Loop.Stages = []string{"task_notes", "decide", "execute", "record"}
	if _, err := f.harness(t).Run(t.Context(), "go"); err != nil {
		t.Fatal(err)
	}
	if n := f.tool("observe").calls.Load(); n != 0 {
		t.Fatalf("observe ran %d times without its stage", n)
	}
	if txt := requestText(f.decide.requests()[1]); strings.Contains(txt, "Observation (") || strings.Contains(txt, "Scene Graph Brief") {
		t.Fatalf("refreshed context without its stages:\n%s", txt)
	}
}

func TestNewRejectsBadSpecs(t *testing.T) {
	cases := []struct {
		name  string
		setup func(f *fixture)
		want  string
	}{
		{"name clash", func(f *fixture) {
			f.spec.Toolsets["other"] = schema.Toolset{Kind: "builtin", MaxResultBytes: 1 << 20}
			f.addTool("other", "move", nil)
		}, `tool "move" is provided by toolsets "core" and "other"`},
		{"unknown kind", func(f *fixture) { f.spec.Toolsets["x"] = schema.Toolset{Kind: "grpc"} }, `toolset kind "grpc" is not available in this build`},
		{"allow-list names a missing tool", func(f *fixture) {
			f.spec.Toolsets["core"] = schema.Toolset{Kind: "builtin", MaxResultBytes: 1 << 20, Tools: []string{"observe", "jump"}}
		}, `toolset does not provide "jump"`},
		{"contract for a missing tool", func(f *fixture) { f.spec.Tools["jump"] = schema.ToolContract{} }, `tools.jump: no toolset provides the tool "jump"`},
		{"unknown stage", func(f *fixture) { f.spec.Loop.Stages = append(f.spec.Loop.Stages, "dream") }, `stage "dream" is not available in this build`},
		{"compact before observe", func(f *fixture) {
			f.spec.Loop.Stages = []string{"compact", "observe"}
		}, `stage "compact" must run after "observe"`},
		{"bad compaction budget", func(f *fixture) {
			f.spec.Context.Compaction.Enabled = true
			f.spec.Context.Compaction.ReserveTokens = 300000
		}, "context_window (200000) must exceed reserve_tokens (300000)"},
		{"bad redact pattern", func(f *fixture) { f.spec.RunLog.Redact = []string{"("} }, "run_log.redact[0]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			tc.setup(f)
			_, err := engine.New(t.Context(), f.spec, f.options(t))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("New error = %v, want it to contain %q", err, tc.want)
			}
			if c, o := f.closes.Load(), f.opens.Load(); c != o {
				t.Fatalf("after a failed New %d of %d built toolsets were closed", c, o)
			}
		})
	}
}

// Task start reads Memory and tool experience; hidden tools are not offered;
// a loaded skill joins Resident context for the rest of its task only.
func TestResidentContext(t *testing.T) {
	f := newFixture(t, toolResp("", call("load_skill", `{"name":"drawer"}`)), toolResp("", call("move", `{}`)), toolResp("done"), toolResp("next"))
	f.spec.Memory.Dir = "mem"
	f.skills = fakeCatalog{"drawer": "Pull the handle slowly."}
	dir := filepath.Join(f.spec.Dir, "mem")
	must(t, os.MkdirAll(filepath.Join(dir, "tool_experience"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "MEMORY.md"), []byte("The kitchen door sticks."), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "tool_experience", "move.md"), []byte("Short moves work best."), 0o644))
	f.addInProcessTool("core", "load_skill", func(_ context.Context, h *engine.CallHandle, args map[string]any) runlog.Envelope {
		body, err := h.Skills.Load(args["name"].(string))
		if err != nil {
			return runlog.Failure(err.Error())
		}
		return runlog.Envelope{Success: true, Value: map[string]any{"loaded": len(body)}}
	})
	h := f.harness(t)
	for _, in := range []string{"open the drawer", "again"} {
		if _, err := h.Run(t.Context(), in); err != nil {
			t.Fatal(err)
		}
	}
	reqs := f.decide.requests()
	sys := func(i int) string { return reqs[i].Messages[0].Text() }
	for _, want := range []string{"One tool call per turn", "The kitchen door sticks.", "Embodiment Profile", "testbot", "catalog: drawer"} {
		if !strings.Contains(sys(0), want) {
			t.Errorf("resident context lacks %q:\n%s", want, sys(0))
		}
	}
	if strings.Contains(sys(0), "Pull the handle") || !strings.Contains(sys(1), "Pull the handle slowly.") || !strings.Contains(sys(2), "Pull the handle") {
		t.Error("the skill body must join Resident context after load_skill, for the rest of the task")
	}
	if strings.Contains(sys(3), "Pull the handle") {
		t.Error("a skill body outlived its task")
	}
	var moveDef *model.ToolDef
	for i, d := range reqs[0].Tools {
		if d.Name == "observe" {
			t.Error("a hidden tool is offered to the model")
		}
		if d.Name == "move" {
			moveDef = &reqs[0].Tools[i]
		}
	}
	if moveDef == nil || !strings.HasPrefix(moveDef.Description, "move does its job.\n\n") || !strings.Contains(moveDef.Description, "Short moves work best.") {
		t.Fatalf("move definition = %+v", moveDef)
	}
}

type fakeCatalog map[string]string

func (c fakeCatalog) Render() string { return "Skill catalog: drawer (opening drawers)" }
func (c fakeCatalog) Body(name string) (string, error) {
	if b, ok := c[name]; ok {
		return b, nil
	}
	return "", errors.New("no skill " + name)
}
func (c fakeCatalog) Names() []string { return []string{"drawer"} }
func (c fakeCatalog) Resource(context.Context, string, string) (string, error) {
	return "", errors.New("fake catalog: no resources")
}

// An in-process tool reaches its session through its call's handle: events
// it emits join the stream in order, scene lookup returns refs a question
// can carry, and the handle's skills end with its task. A toolset's own
// stream outlives tasks.
func TestCallHandleEmitAndSceneLookup(t *testing.T) {
	f := newFixture(t, toolResp("", call("ask", `{}`)), toolResp("done"))
	var refs []string
	var kept *engine.CallHandle
	f.addInProcessTool("core", "ask", func(_ context.Context, h *engine.CallHandle, _ map[string]any) runlog.Envelope {
		for _, e := range h.Scene.Lookup("cup") {
			refs = append(refs, e.Ref)
		}
		h.Emit(runlog.Event{Kind: runlog.EventQuestion, Text: "which mug?"})
		h.Emit(runlog.Event{Kind: runlog.EventNotify, Text: "looking"})
		kept = h
		return runlog.Envelope{Success: true}
	})
	h := f.harness(t)
	evs := collect(h.RunStream(t.Context(), "find my mug"))
	if !slices.Equal(refs, []string{"obj:mug"}) {
		t.Fatalf("scene lookup refs %v", refs)
	}
	ks := kinds(evs)
	q, n, r := slices.Index(ks, runlog.EventQuestion), slices.Index(ks, runlog.EventNotify), slices.Index(ks, runlog.EventToolResult)
	if q < 0 || n != q+1 || r < n {
		t.Fatalf("tool events out of order: %v", ks)
	}
	if evs[q].Task != 1 || evs[q].Turn != 1 || evs[q].Time.IsZero() {
		t.Fatalf("queued event not stamped: %+v", evs[q])
	}
	f.stream.Emit(runlog.Event{Kind: runlog.EventNotify, Text: "after the task"}) // kept for the next task, no panic
	if _, err := kept.Skills.Load("x"); err == nil {
		t.Fatal("load_skill without skills must fail")
	}
}

// A call answered because the instruction was revised did not fail: it does
// not count against the failure budget.
func TestRevisedCallIsNotAFailure(t *testing.T) {
	f := newFixture(t, toolResp("", call("move", `{"d":1}`)), toolResp("done"))
	f.spec.Safety.FailureBudget = schema.FailureBudget{Consecutive: 1, Total: 1}
	polls := 0
	replan := engine.WithPollReplan(func() (string, bool) {
		polls++
		return "bring the plate instead", polls == 2 // before the first tool runs
	})
	evs := collect(f.harness(t).RunStream(t.Context(), "bring the mug", replan))
	if d := evs[len(evs)-1].Done; d == nil || d.Reason != runlog.DoneFinal {
		t.Fatalf("done %+v, want a final answer: a revised call is not a failure", d)
	}
}
