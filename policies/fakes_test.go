package policies

import (
	"context"
	"errors"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// fakeTools answers tool calls from a table and records them.
type fakeTools struct {
	results map[string]runlog.Envelope
	calls   []fakeCall
}

type fakeCall struct {
	name string
	args map[string]any
}

func (f *fakeTools) Read(_ context.Context, _ engine.Purpose, name string, args map[string]any) runlog.Envelope {
	f.calls = append(f.calls, fakeCall{name, args})
	if r, ok := f.results[name]; ok {
		return r
	}
	return runlog.Failure("unknown tool " + name)
}

func (f *fakeTools) count(name string) int {
	n := 0
	for _, c := range f.calls {
		if c.name == name {
			n++
		}
	}
	return n
}

func clearanceEnv(front, back, left, right float64) runlog.Envelope {
	return runlog.Envelope{Success: true, Value: map[string]any{"front": front, "back": back, "left": left, "right": right}}
}

// fakeUser answers every question with one answer and records the questions.
type fakeUser struct {
	answer string
	err    error
	asked  []engine.Question
}

func (u *fakeUser) Ask(_ context.Context, q engine.Question) (string, error) {
	u.asked = append(u.asked, q)
	return u.answer, u.err
}

func (u *fakeUser) Notify(context.Context, string) error { return nil }

// Confirm makes fakeUser a confirmation channel, as a script channel is.
func (u *fakeUser) Confirm(ctx context.Context, q engine.Question) (string, error) {
	return u.Ask(ctx, q)
}

// askOnlyUser answers questions but has no confirmation channel, like a
// terminal whose only input is the instruction stream.
type askOnlyUser struct{ answer string }

func (u askOnlyUser) Ask(context.Context, engine.Question) (string, error) { return u.answer, nil }

func (askOnlyUser) Notify(context.Context, string) error { return nil }

// fakeModel returns one canned answer and records every request.
type fakeModel struct {
	text string
	err  error
	reqs []model.Request
}

func (m *fakeModel) Generate(_ context.Context, req model.Request) (model.Response, error) {
	m.reqs = append(m.reqs, req)
	if m.err != nil {
		return model.Response{}, m.err
	}
	return model.Response{Text: m.text}, nil
}

var errUnreachable = errors.New("unreachable")

// householdSpec is a small household-like spec: base motion guarded by
// clearance, a manipulation tool evaluated after it ran.
func householdSpec() *schema.Spec {
	return &schema.Spec{
		Name: "test",
		Embodiment: schema.Embodiment{Limits: schema.Limits{
			MaxTranslationM: 1.0, MinClearanceM: 0.3, SafetyMarginM: 0.1, MaxSpeedMps: 0.5,
		}},
		Observation: schema.ObservationSource{Tool: "observe"},
		Safety:      schema.Safety{ClearanceTool: "clearance"},
		Evaluator:   schema.Evaluator{VerdictThreshold: 0.6},
		Tools: map[string]schema.ToolContract{
			"move_base":  {Tags: []string{"base_motion"}, Physical: true},
			"navigate":   {Tags: []string{"base_motion", "navigation"}, Physical: true},
			"pick_up":    {Tags: []string{"manipulation"}, Physical: true, PostCondition: "SECRET-PC: the object is held"},
			"open":       {Tags: []string{"manipulation"}, Physical: true, PostCondition: "SECRET-PC: the door is open", Segmented: true, MaxSegments: 2},
			"place":      {Tags: []string{"manipulation"}, Physical: true, PostCondition: "SECRET-PC: placed", Check: "after.held == '' && args.target != ''"},
			"query_user": {Tags: []string{"user"}},
		},
		Hooks: schema.Hooks{
			Pre: []schema.PreHook{
				{Name: "boxed_in", When: "tool.name == 'navigate'", Action: "block",
					Rule: "!clearance.any_admissible", Reason: "no direction is admissible"},
				{Name: "translation", When: "tool.name == 'move_base'", Action: "clamp",
					Config: ClampConfig{Clamp: &Clamp{Arg: "distance_m", Min: "0",
						Max: "min([clearance.toward(args.direction) - limits.safety_margin_m, limits.max_translation_m])"}},
					Reason: "too close to an obstacle"},
			},
			Post: []schema.PostHook{
				{Name: "evaluate_run", When: "'manipulation' in tool.tags", Action: "evaluate"},
			},
		},
	}
}

func newPolicy(t *testing.T, s *schema.Spec, tools engine.ToolReader, m model.Model, u engine.UserChannel) *Policy {
	t.Helper()
	rules, errs := schema.CompileRules(s)
	if len(errs) > 0 {
		t.Fatalf("CompileRules: %v", errs)
	}
	s.Rules = rules
	env := engine.PolicyEnv{Spec: s, Tools: tools, Evaluator: m}
	if u != nil {
		env.User = u
	}
	p, err := NewWithActions(env, NewActions())
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return p
}

// callCtx builds a call of a tool of s, recording emitted events into evs.
func callCtx(s *schema.Spec, tool string, args map[string]any, evs *[]runlog.Event) *engine.CallContext {
	return &engine.CallContext{
		Call: &engine.Call{ID: "c1", Tool: tool, Args: args, Turn: 3},
		Tool: &engine.RegisteredTool{Toolset: "sim", Contract: s.Tools[tool]},
		Emit: func(e runlog.Event) { *evs = append(*evs, e) },
	}
}

// benchTools returns one clearance reading without recording calls.
type benchTools struct{ reading runlog.Envelope }

func (f *benchTools) Read(context.Context, engine.Purpose, string, map[string]any) runlog.Envelope {
	return f.reading
}
