package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/models/script"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/stages"
)

// fakeTool is a tool whose behaviour a test supplies; its calls get no
// handle (see inProcessTool).
type fakeTool struct {
	def   model.ToolDef
	fn    func(ctx context.Context, args map[string]any) runlog.Envelope
	calls atomic.Int64
	log   *effects
}

func (f *fakeTool) Def() model.ToolDef { return f.def }

func (f *fakeTool) Call(ctx context.Context, raw json.RawMessage) runlog.Envelope {
	return f.run(ctx, raw, f.fn)
}

// run counts and logs the call, then runs fn (nil: succeed).
func (f *fakeTool) run(ctx context.Context, raw json.RawMessage, fn func(context.Context, map[string]any) runlog.Envelope) runlog.Envelope {
	f.calls.Add(1)
	f.log.add("tool:" + f.def.Name)
	var args map[string]any
	if err := json.Unmarshal(raw, &args); err != nil {
		return runlog.Failure("bad args: " + err.Error())
	}
	if fn == nil {
		return runlog.Envelope{Success: true, Value: map[string]any{"done": f.def.Name}}
	}
	return fn(ctx, args)
}

// inProcessTool is a fake tool that runs in the harness: each call gets
// its handle.
type inProcessTool struct {
	*fakeTool
	fnh func(ctx context.Context, h *engine.CallHandle, args map[string]any) runlog.Envelope
}

var _ engine.InProcessTool = inProcessTool{}

func (f inProcessTool) CallWith(ctx context.Context, h *engine.CallHandle, raw json.RawMessage) runlog.Envelope {
	return f.run(ctx, raw, func(ctx context.Context, args map[string]any) runlog.Envelope { return f.fnh(ctx, h, args) })
}

// fakeSet is a toolset of fake tools that counts Close calls.
type fakeSet struct {
	name   string
	tools  []engine.Tool
	closes *atomic.Int64
}

func (s *fakeSet) Name() string                                 { return s.name }
func (s *fakeSet) Tools(context.Context) ([]engine.Tool, error) { return s.tools, nil }
func (s *fakeSet) Close() error                                 { s.closes.Add(1); return nil }

// passBody is the test host's body layer: the engine's tests drive fake
// toolsets, not motions, so it starts a fakeTransport's toolset as it is.
// The body layer's own rules are proved over real back-ends
// (toolsets/bodysuite).
type passBody struct{}

func (passBody) Start(_ context.Context, cfg engine.ToolsetConfig, open engine.Transport) (engine.Toolset, error) {
	b, err := open(cfg, engine.BackendEnv{})
	if err != nil {
		return nil, err
	}
	set, ok := b.(setBackend)
	if !ok {
		return nil, fmt.Errorf("passBody starts fake toolsets only, not a %T", b)
	}
	return set.Toolset, nil
}

// setBackend carries a fake toolset through a transport to passBody.
type setBackend struct{ engine.Toolset }

func (setBackend) Profile() engine.BackendProfile { return engine.BackendProfile{} }
func (setBackend) Connect(context.Context) (engine.BackendConn, error) {
	return nil, fmt.Errorf("a fake toolset has no back-end")
}

// fakeTransport is a transport kind's constructor that builds a fake
// toolset, for passBody.
func fakeTransport(build func(cfg engine.ToolsetConfig) engine.Toolset) engine.Transport {
	return func(cfg engine.ToolsetConfig, _ engine.BackendEnv) (engine.Backend, error) {
		return setBackend{build(cfg)}, nil
	}
}

// effects records the order of things that happened, across tools, models
// and stages.
type effects struct {
	mu sync.Mutex
	l  []string
}

func (e *effects) add(s string) {
	if e == nil {
		return
	}
	e.mu.Lock()
	e.l = append(e.l, s)
	e.mu.Unlock()
}

func (e *effects) list() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.l...)
}

// recorder wraps a model and keeps every request it was sent.
type recorder struct {
	inner model.Model
	name  string
	log   *effects
	mu    sync.Mutex
	reqs  []model.Request
	// noKeep drops requests (benchmarks).
	noKeep bool
}

func (r *recorder) Generate(ctx context.Context, req model.Request) (model.Response, error) {
	if !r.noKeep {
		// A model keeps no part of its request: a copy.
		req.Messages = slices.Clone(req.Messages)
		r.mu.Lock()
		r.reqs = append(r.reqs, req)
		r.mu.Unlock()
	}
	r.log.add(r.name + ":" + string(req.Purpose))
	return r.inner.Generate(ctx, req)
}

func (r *recorder) requests() []model.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]model.Request(nil), r.reqs...)
}

// passPolicy allows every call unless pre says otherwise; post may judge.
type passPolicy struct {
	pre  func(cc *engine.CallContext) engine.PreResult
	post func(cc *engine.CallContext, env *runlog.Envelope) engine.PostResult
}

func (p passPolicy) Pre(_ context.Context, cc *engine.CallContext) engine.PreResult {
	if p.pre != nil {
		return p.pre(cc)
	}
	return engine.PreResult{Allowed: true, Args: cc.Call.Args}
}

func (p passPolicy) Post(_ context.Context, cc *engine.CallContext, env *runlog.Envelope) engine.PostResult {
	if p.post != nil {
		return p.post(cc, env)
	}
	return engine.PostResult{}
}

// fixture builds a Harness from a spec, fake tools and a decide model.
type fixture struct {
	spec   *schema.Spec
	tools  map[string][]engine.Tool // by toolset name
	decide *recorder
	// decideModel, when set, replaces decide as the acting model.
	decideModel model.Model
	compact     *recorder
	policy      passPolicy
	closes      atomic.Int64
	opens       atomic.Int64
	log         *effects
	skills      engine.SkillCatalog
	wrap        bool // wrap stages to log their order
	stream      engine.TaskStream
}

func newFixture(t testing.TB, rs ...model.Response) *fixture {
	t.Helper()
	log := &effects{}
	f := &fixture{log: log, tools: map[string][]engine.Tool{}}
	f.spec = &schema.Spec{
		Name:         "test",
		SystemPrompt: "You control a robot through tools. One tool call per turn.",
		Model:        schema.Model{Provider: "test", Config: testModel{Name: "main"}},
		Embodiment:   schema.Embodiment{Name: "testbot", Limits: schema.Limits{MaxTranslationM: 1}},
		Observation:  schema.ObservationSource{Tool: "observe"},
		Toolsets:     map[string]schema.Toolset{"core": {Kind: "builtin", MaxResultBytes: 1 << 20}},
		Tools:        map[string]schema.ToolContract{"observe": {Hidden: true}},
		Loop:         schema.Loop{Stages: []string{"task_notes", "observe", "scene_brief", "compact", "decide", "execute", "record"}},
		SceneGraph:   schema.SceneGraph{Enabled: true, MaxBriefObjects: 8, MaxBriefRefs: 40, StaleAfterTurns: 3},
		Safety:       schema.Safety{MaxTurns: 50},
		Memory:       schema.Memory{MemoryChars: 8000, ToolExperienceChars: 800},
		Context: schema.ContextConfig{Compaction: schema.Compaction{
			ContextWindow: 200000, ReserveTokens: 16384, Target: 0.6, KeepRecentTurns: 4, KeepRecentTokens: 20000,
			ToolResultMaxChars: 2000, ReasoningMaxChars: 2000, MaxInputChars: 400000, MaxSummaryRounds: 8,
		}},
		Dir: t.TempDir(),
	}
	f.decide = &recorder{inner: script.FromResponses(rs...), name: "model", log: log}
	f.addTool("core", "observe", func(context.Context, map[string]any) runlog.Envelope {
		return runlog.Envelope{Success: true, Value: map[string]any{
			"detections": []any{map[string]any{"name": "mug", "class": "cup", "relation": "on", "target": "table", "room": "kitchen", "visible": true}},
			"summary":    "kitchen",
		}}
	})
	f.addTool("core", "move", nil)
	return f
}

func (f *fixture) addTool(set, name string, fn func(context.Context, map[string]any) runlog.Envelope) *fakeTool {
	tool := &fakeTool{def: model.ToolDef{Name: name, Description: name + " does its job.", InputSchema: json.RawMessage(`{"type":"object"}`)}, fn: fn, log: f.log}
	f.tools[set] = append(f.tools[set], tool)
	return tool
}

// addInProcessTool adds a tool whose calls get their handle.
func (f *fixture) addInProcessTool(set, name string, fn func(ctx context.Context, h *engine.CallHandle, args map[string]any) runlog.Envelope) {
	tool := &fakeTool{def: model.ToolDef{Name: name, Description: name + " does its job.", InputSchema: json.RawMessage(`{"type":"object"}`)}, log: f.log}
	f.tools[set] = append(f.tools[set], inProcessTool{fakeTool: tool, fnh: fn})
}

func (f *fixture) tool(name string) *fakeTool {
	for _, ts := range f.tools {
		for _, t := range ts {
			if t.Def().Name == name {
				return t.(*fakeTool)
			}
		}
	}
	panic("no tool " + name)
}

func (f *fixture) options(t *testing.T) engine.Options { return f.optionsFor(t) }

func (f *fixture) optionsFor(t testing.TB) engine.Options {
	t.Helper()
	c := engine.NewComponents()
	c.SetBody(passBody{})
	must(t, c.Add(engine.ToolsetKind{Name: "builtin", Transport: fakeTransport(func(cfg engine.ToolsetConfig) engine.Toolset {
		f.stream = cfg.Stream
		f.opens.Add(1)
		return &fakeSet{name: cfg.Name, tools: f.tools[cfg.Name], closes: &f.closes}
	})}))
	for _, comp := range stages.Components() {
		k := comp.(engine.StageKind)
		if f.wrap {
			inner := k.New
			k.New = func(s *schema.Spec) (engine.Stage, error) {
				st, err := inner(s)
				return loggedStage{st, f.log}, err
			}
		}
		must(t, c.Add(k))
	}
	must(t, c.Add(engine.TypedProvider("test", "the fixture's scripted models", "", nil, func(_ schema.Model, cfg testModel, _ string) (model.Model, error) {
		if cfg.Name == "summariser" && f.compact != nil {
			return f.compact, nil
		}
		if f.decideModel != nil {
			return f.decideModel, nil
		}
		return f.decide, nil
	})))
	return engine.Options{
		Components: c, Skills: f.skills,
		Policy: func(engine.PolicyEnv) (engine.Policy, error) { return f.policy, nil },
	}
}

func (f *fixture) harness(t *testing.T) *engine.Harness {
	t.Helper()
	h, err := engine.New(t.Context(), f.spec, f.options(t))
	if err != nil {
		t.Fatalf("engine.New: %v", err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return h
}

type loggedStage struct {
	engine.Stage
	log *effects
}

func (l loggedStage) Run(ctx context.Context, t *engine.Turn) error {
	l.log.add("stage:" + l.Name())
	return l.Stage.Run(ctx, t)
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func call(name string, args string) model.ToolCall {
	return model.ToolCall{Name: name, Arguments: json.RawMessage(args)}
}

func toolResp(text string, calls ...model.ToolCall) model.Response {
	return model.Response{Text: text, ToolCalls: calls}
}

func collect(seq func(func(runlog.Event) bool)) []runlog.Event {
	var evs []runlog.Event
	for ev := range seq {
		evs = append(evs, ev)
	}
	return evs
}

func kinds(evs []runlog.Event) []runlog.EventKind {
	out := make([]runlog.EventKind, len(evs))
	for i, e := range evs {
		out[i] = e.Kind
	}
	return out
}

func countDone(evs []runlog.Event) int {
	n := 0
	for _, e := range evs {
		if e.Kind == runlog.EventDone {
			n++
		}
	}
	return n
}

// requestText flattens a request's text for containment checks.
func requestText(req model.Request) string {
	var b strings.Builder
	for _, m := range req.Messages {
		fmt.Fprintf(&b, "<%s>%s", m.Role, m.Text())
		for _, c := range m.ToolCalls {
			fmt.Fprintf(&b, "[call %s %s]", c.Name, c.Arguments)
		}
	}
	for _, d := range req.Tools {
		fmt.Fprintf(&b, "<tool %s>%s", d.Name, d.Description)
	}
	return b.String()
}

func imageCount(req model.Request) int {
	n := 0
	for _, m := range req.Messages {
		for _, p := range m.Parts {
			if p.Image != nil {
				n++
			}
		}
	}
	return n
}

// testModel is the "test" provider's config: the model's name (the run log
// shows "test/<name>") and the variable of its key, as a real provider's.
type testModel struct {
	Name      string `json:"name,omitempty"`
	APIKeyEnv string `json:"api_key_env,omitempty"`
}

// ModelName implements schema.ModelNamer.
func (m testModel) ModelName() string { return m.Name }
