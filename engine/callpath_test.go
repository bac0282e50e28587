package engine_test

import (
	"context"
	"iter"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// probeStage calls, from inside a turn, every method of *engine.Turn that
// takes a tool name (probeNamed).
type probeStage struct{ called *[]string }

func (probeStage) Name() string { return "probe" }
func (s probeStage) Run(ctx context.Context, t *engine.Turn) error {
	*s.called = append(*s.called, probeNamed(ctx, reflect.ValueOf(t), "move")...)
	return nil
}

// probeNamed calls each exported method of v that takes a string (a tool
// name, or what a caller could pass one as) with name, any context with
// ctx, any map with an empty one and anything else with its zero value;
// a variadic method gets none of its variadic arguments, and a returned
// event stream is drained. It returns the names of the methods called.
func probeNamed(ctx context.Context, v reflect.Value, name string) []string {
	var called []string
	ctxType := reflect.TypeFor[context.Context]()
	for m := range v.Type().Methods() {
		mt := m.Type
		args := []reflect.Value{v}
		takesName := false
		last := mt.NumIn()
		if mt.IsVariadic() {
			last--
		}
		for i := 1; i < last; i++ {
			in := mt.In(i)
			switch {
			case in == ctxType:
				args = append(args, reflect.ValueOf(ctx))
			case in.Kind() == reflect.String:
				takesName = true
				args = append(args, reflect.ValueOf(name).Convert(in))
			case in.Kind() == reflect.Map:
				args = append(args, reflect.MakeMap(in))
			default:
				args = append(args, reflect.Zero(in))
			}
		}
		// Pause runs no tool; it holds every later task until HandBack,
		// so the probe's own Run would wait (handover_test.go tests it).
		if !takesName || m.Name == "Pause" {
			continue
		}
		for _, out := range m.Func.Call(args) {
			if seq, ok := out.Interface().(iter.Seq[runlog.Event]); ok {
				for range seq {
				}
			}
		}
		called = append(called, m.Name)
	}
	return called
}

// No exported method of package engine runs a physical tool around its
// hooks: every method of *Harness and *Turn that takes a tool name is
// called with a physical tool whose pre-hook blocks it (the model's
// decisions name it too), and the tool never runs; a registered tool
// handed out (Harness.Lookup, CallContext.Tool) exposes no tool to call.
func TestNoExportedMethodRunsAPhysicalToolWithoutHooks(t *testing.T) {
	moves := toolResp("", call("move", `{}`))
	f := newFixture(t, moves, moves, moves, moves, toolResp("done"), toolResp("done"), toolResp("done"))
	f.spec.Tools["move"] = schema.ToolContract{Physical: true}
	var hooked atomic.Int64
	f.policy.pre = func(cc *engine.CallContext) engine.PreResult {
		if cc.Call.Tool == "move" {
			hooked.Add(1)
			return engine.PreResult{Hook: "fence", Reason: "no"}
		}
		return engine.PreResult{Allowed: true, Args: cc.Call.Args}
	}
	var inTurn []string
	f.spec.Loop.Stages = []string{"task_notes", "probe", "observe", "decide", "execute", "record"}
	opts := f.options(t)
	must(t, opts.Components.Add(engine.StageKind{Name: "probe", New: func(*schema.Spec) (engine.Stage, error) { return probeStage{&inTurn}, nil }}))
	h, err := engine.New(t.Context(), f.spec, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })

	onHarness := probeNamed(t.Context(), reflect.ValueOf(h), "move")
	if got := f.tool("move").calls.Load(); got != 0 {
		t.Fatalf("the physical tool ran %d times around its hooks (probed *Harness.%s, *Turn.%s)",
			got, strings.Join(onHarness, ", *Harness."), strings.Join(slices.Compact(slices.Sorted(slices.Values(inTurn))), ", *Turn."))
	}
	// The probes reached what they must: a task ran, its stage probed the
	// Turn, and the hooks saw the model's and the stage's calls.
	if !slices.Contains(onHarness, "Run") || !slices.Contains(inTurn, "CallTool") || hooked.Load() == 0 {
		t.Fatalf("probed *Harness.%v and *Turn.%v, hooks saw move %d times: the probe missed the API", onHarness, inTurn, hooked.Load())
	}
	toolType := reflect.TypeFor[engine.Tool]()
	for field := range reflect.TypeFor[engine.RegisteredTool]().Fields() {
		if field.IsExported() && (field.Type.Implements(toolType) || field.Type == toolType) {
			t.Errorf("RegisteredTool.%s hands out the tool itself: anyone holding it can call it around the hooks", field.Name)
		}
	}
}

// The reads a policy gets (PolicyEnv.Tools) never run a physical tool,
// whatever purpose the caller declares; they run a tool that is not.
func TestPolicyReadsRefusePhysicalTools(t *testing.T) {
	f := newFixture(t, toolResp("done"))
	f.spec.Tools["move"] = schema.ToolContract{Physical: true}
	opts := f.options(t)
	var reader engine.ToolReader
	opts.Policy = func(env engine.PolicyEnv) (engine.Policy, error) { reader = env.Tools; return f.policy, nil }
	h, err := engine.New(t.Context(), f.spec, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	for p := range engine.Purpose(16) {
		if env := reader.Read(t.Context(), p, "move", nil); env.Success || !strings.Contains(env.Reason, "move did not run") {
			t.Errorf("Read(%s, move): %+v, want a refusal", p, env)
		}
	}
	if got := f.tool("move").calls.Load(); got != 0 {
		t.Fatalf("the physical tool ran %d times through the policy's reads", got)
	}
	if env := reader.Read(t.Context(), engine.PurposeReading, "observe", nil); !env.Success {
		t.Fatalf("a reading of a tool that is not physical failed: %s", env.Reason)
	}
}

// A spec whose read (the observation, a safety reading, the evidence, a
// verifier) names a physical tool does not start, and the error names the
// field.
func TestReadOfAPhysicalToolRefusedAtStart(t *testing.T) {
	for _, tc := range []struct {
		path string
		set  func(s *schema.Spec)
	}{
		{"observation.tool", func(s *schema.Spec) { s.Observation.Tool = "move" }},
		{"safety.clearance_tool", func(s *schema.Spec) { s.Safety.ClearanceTool = "move" }},
		{"safety.readings.tool", func(s *schema.Spec) {
			s.Safety.Readings = &schema.SafetyReadings{Tool: "move", Values: map[string]string{"d": "number"}}
		}},
		{"evaluator.evidence", func(s *schema.Spec) { s.Evaluator.Evidence = "move" }},
		{"episodes.reset.tool", func(s *schema.Spec) { s.Episodes.Reset = &schema.Reset{Tool: "move"} }},
		{"tools.observe.verify.tool", func(s *schema.Spec) {
			c := s.Tools["observe"]
			c.Verify = &schema.Verify{Tool: "move"}
			s.Tools["observe"] = c
		}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			f := newFixture(t, toolResp("done"))
			f.spec.Tools["move"] = schema.ToolContract{Physical: true}
			tc.set(f.spec)
			h, err := engine.New(t.Context(), f.spec, f.options(t))
			if err == nil {
				_ = h.Close()
				t.Fatalf("engine.New started with %s naming a physical tool", tc.path)
			}
			if !strings.Contains(err.Error(), tc.path+`: "move" is physical`) {
				t.Fatalf("error %q does not name %s and the physical tool", err, tc.path)
			}
		})
	}
}
