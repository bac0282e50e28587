package policies

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/expr-lang/expr/vm"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/rules"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// Policy runs a spec's hook chains for one session.
type Policy struct {
	spec      *schema.Spec
	tools     engine.ToolReader
	evaluator model.Model
	confirm   Confirmer // nil: confirm hooks block
	pre       []preHook
	post      []postHook
	checks    map[string]*vm.Program

	mu sync.Mutex
	// segments counts consecutive "process" verdicts per tool.
	segments map[string]int
	// refused holds the ids of calls the pre chain blocked, so a Post on one
	// of them never evaluates it (entries are dropped when Post sees them).
	refused map[string]bool
}

type preHook struct {
	hook   *schema.PreHook
	rules  *schema.PreRules
	action PreAction
	// whenReadsClearance, whenReadsReadings: the reading is needed before
	// selecting the hook; otherwise it is taken only for hooks whose when
	// holds.
	whenReadsClearance, whenReadsReadings bool
}

type postHook struct {
	hook   *schema.PostHook
	rules  *schema.PostRules
	action PostAction
	// judge: the action decides the verdict, so it fails closed.
	judge bool
}

var (
	_ engine.Policy        = (*Policy)(nil)
	_ engine.PolicyFactory = New
)

// New builds the policy of env.Spec; it is an engine.PolicyFactory. The
// hook actions come from env.Components when given, else this package's
// (see ActionsOf).
func New(env engine.PolicyEnv) (engine.Policy, error) {
	actions, err := ActionsOf(env.Components)
	if err != nil {
		return nil, err
	}
	return NewWithActions(env, actions)
}

// ActionsOf collects the hook actions registered in a catalog, the one
// table both `thea run` (New) and the rule tests of `thea validate`
// (RunRuleTests) dispatch through; nil is this package's own actions.
func ActionsOf(c *engine.Components) (*Actions, error) {
	if c == nil {
		return NewActions(), nil
	}
	actions := &Actions{Pre: map[string]PreAction{}, Post: map[string]PostAction{}, Judges: map[string]bool{}}
	for _, name := range c.Descriptors().Names(schema.KindPreAction) {
		k, err := engine.Get[PreActionKind](c, schema.KindPreAction, name)
		if err != nil {
			return nil, fmt.Errorf("policies: %w", err)
		}
		actions.Pre[name] = k.Run
	}
	for _, name := range c.Descriptors().Names(schema.KindPostAction) {
		k, err := engine.Get[PostActionKind](c, schema.KindPostAction, name)
		if err != nil {
			return nil, fmt.Errorf("policies: %w", err)
		}
		actions.Post[name] = k.Run
		actions.Judges[name] = k.Judge
	}
	return actions, nil
}

// NewWithActions builds the policy with a caller's action registry. Rules come
// from env.Spec.Rules (compiled at load); a spec not loaded through the schema
// loader is compiled here, and any rule error fails.
func NewWithActions(env engine.PolicyEnv, actions *Actions) (*Policy, error) {
	s := env.Spec
	if s == nil {
		return nil, errors.New("policies: no spec")
	}
	compiled := s.Rules
	if compiled == nil {
		var errs []schema.RuleError
		if compiled, errs = schema.CompileRules(s); len(errs) > 0 {
			return nil, fmt.Errorf("policies: compiling rules: %w", joinRuleErrors(errs))
		}
	}
	if len(compiled.Pre) != len(s.Hooks.Pre) || len(compiled.Post) != len(s.Hooks.Post) {
		return nil, fmt.Errorf("policies: compiled rules (%d pre, %d post) do not match the spec's hooks (%d pre, %d post)",
			len(compiled.Pre), len(compiled.Post), len(s.Hooks.Pre), len(s.Hooks.Post))
	}
	p := &Policy{spec: s, tools: env.Tools, evaluator: env.Evaluator,
		checks: compiled.Checks, segments: map[string]int{}, refused: map[string]bool{}}
	for i := range s.Hooks.Pre {
		h := &s.Hooks.Pre[i]
		act, ok := actions.Pre[h.Action]
		if !ok {
			return nil, fmt.Errorf("policies: hooks.pre[%d] (%s): unknown pre-hook action %q", i, h.Name, h.Action)
		}
		r := &compiled.Pre[i]
		p.pre = append(p.pre, preHook{hook: h, rules: r, action: act, whenReadsClearance: rules.ReadsIdent(r.When, "clearance"),
			whenReadsReadings: rules.ReadsIdent(r.When, "readings")})
	}
	for i := range s.Hooks.Post {
		h := &s.Hooks.Post[i]
		act, ok := actions.Post[h.Action]
		if !ok {
			return nil, fmt.Errorf("policies: hooks.post[%d] (%s): unknown post-hook action %q", i, h.Name, h.Action)
		}
		p.post = append(p.post, postHook{hook: h, rules: &compiled.Post[i], action: act, judge: actions.Judges[h.Action]})
	}
	// Confirm answers come from the user channel only when it has a channel
	// apart from the instructions (see Confirmer).
	if c, ok := env.User.(Confirmer); ok {
		p.confirm = c
	}
	return p, nil
}

func joinRuleErrors(errs []schema.RuleError) error {
	es := make([]error, len(errs))
	for i, e := range errs {
		es[i] = e
	}
	return errors.Join(es...)
}

// PreCall is one pre-hook applied to one call: what an action reads and
// changes. Env.Args and Args are the same map.
type PreCall struct {
	Hook  *schema.PreHook
	Rules *schema.PreRules
	Env   *schema.CallEnv
	Args  map[string]any
	// Confirm answers confirm hooks; nil when there is no such channel.
	Confirm Confirmer
	vm      *vm.VM
}

// Eval runs a compiled expression against the call's environment.
func (c *PreCall) Eval(p *vm.Program) (any, error) { return rules.Run(c.vm, p, c.Env) }

// evalBool runs a bool rule; a nil program (an empty when or rule) is true.
func (c *PreCall) evalBool(p *vm.Program) (bool, error) {
	if p == nil {
		return true, nil
	}
	v, err := c.Eval(p)
	if err != nil {
		return false, err
	}
	b, ok := v.(bool)
	if !ok {
		return false, fmt.Errorf("rule gave %T, not a bool", v)
	}
	return b, nil
}

func (c *PreCall) evalFloat(p *vm.Program) (float64, error) {
	v, err := c.Eval(p)
	if err != nil {
		return 0, err
	}
	f, ok := toFloat(v)
	if !ok {
		return 0, fmt.Errorf("bound gave %T, not a number", v)
	}
	return f, nil
}

// Pre runs the pre-execution chain in spec order. The first hook whose
// expressions read `clearance` (or `readings`) triggers one fresh reading for
// the whole chain.
func (p *Policy) Pre(ctx context.Context, cc *engine.CallContext) engine.PreResult {
	// Back-ends may reuse call ids across turns: a refusal of an earlier call
	// with this id (never handed to Post) must not mark this one.
	p.wasRefused(cc.Call.ID)
	args := make(map[string]any, len(cc.Call.Args))
	for k, v := range cc.Call.Args {
		args[k] = v
	}
	env := p.callEnv(cc, args)
	reading := &freshOnce{policy: p, env: &env}
	machine := rules.NewVM()
	res := engine.PreResult{Args: args}
	for i := range p.pre {
		h := &p.pre[i]
		c := &PreCall{Hook: h.hook, Rules: h.rules, Env: &env, Args: args, Confirm: p.confirm, vm: machine}
		step := p.preStep(ctx, h, c, reading)
		v := runlog.Decision{Hook: h.hook.Name, Phase: "pre", Decision: step.Decision,
			Reason: step.Reason, Before: step.Before, After: step.After, Confirmation: step.Confirmation}
		res.Decisions = append(res.Decisions, v)
		emit(cc, runlog.Event{Kind: runlog.EventHook, Hook: &v})
		if step.Decision != "skip" {
			res.Hook = h.hook.Name
		}
		if step.Block {
			res.Reason = step.Reason
			p.markRefused(cc.Call.ID)
			return res
		}
		if step.Stop {
			break
		}
	}
	res.Allowed = true
	return res
}

// preStep selects and applies one hook; every error (a missing reading, a rule
// failing at run time, a panicking action) blocks the call.
func (p *Policy) preStep(ctx context.Context, h *preHook, c *PreCall, reading *freshOnce) (step Step) {
	defer func() {
		if r := recover(); r != nil {
			step = block(fmt.Sprintf("hook %q failed: %v", h.hook.Name, r))
		}
	}()
	if h.whenReadsClearance || h.whenReadsReadings {
		if err := reading.take(ctx, h.whenReadsClearance, h.whenReadsReadings); err != nil {
			return block(fmt.Sprintf("hook %q: %v; blocked to stay safe", h.hook.Name, err))
		}
	}
	ok, err := c.evalBool(h.rules.When)
	if m := rules.Missing(err); m != nil {
		return p.unknown(ctx, h, c, m)
	}
	if err != nil {
		return block(fmt.Sprintf("hook %q: when failed: %v", h.hook.Name, err))
	}
	if !ok {
		return Step{Decision: runlog.DecisionSkip, Reason: "when does not hold"}
	}
	if h.rules.ReadsClearance || h.rules.ReadsReadings {
		if err := reading.take(ctx, h.rules.ReadsClearance, h.rules.ReadsReadings); err != nil {
			return block(fmt.Sprintf("hook %q: %v; blocked to stay safe", h.hook.Name, err))
		}
	}
	ok, err = c.evalBool(h.rules.Rule)
	if m := rules.Missing(err); m != nil {
		return p.unknown(ctx, h, c, m)
	}
	if err != nil {
		return block(fmt.Sprintf("hook %q: rule failed: %v", h.hook.Name, err))
	}
	if !ok {
		return Step{Decision: runlog.DecisionSkip, Reason: "rule does not hold"}
	}
	return h.action(ctx, c)
}

// callEnv is the rule view of a call: the tool's contract, its arguments, the
// profile's limits, the latest observation and the turn.
func (p *Policy) callEnv(cc *engine.CallContext, args map[string]any) schema.CallEnv {
	name := cc.Call.Tool
	var toolset string
	contract := p.spec.Tools[name]
	if cc.Tool != nil {
		toolset, contract = cc.Tool.Toolset, cc.Tool.Contract
	}
	env := schema.CallEnv{
		Tool:   schema.ToolInfo{Name: name, Toolset: toolset, Tags: contract.Tags, Physical: contract.Physical},
		Args:   args,
		Limits: p.spec.Embodiment.Limits,
		Turn:   cc.Call.Turn,
	}
	if cc.Observation != nil {
		env.Observation = *cc.Observation
	}
	return env
}

func emit(cc *engine.CallContext, ev runlog.Event) {
	if cc.Emit == nil {
		return
	}
	ev.Time = time.Now()
	ev.Turn = cc.Call.Turn
	ev.Tool = cc.Call.Tool
	ev.CallID = cc.Call.ID
	cc.Emit(ev)
}

func (p *Policy) markRefused(id string) {
	if id == "" {
		return
	}
	p.mu.Lock()
	p.refused[id] = true
	p.mu.Unlock()
}

// wasRefused reports (once) whether the pre chain blocked the call id.
func (p *Policy) wasRefused(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	r := p.refused[id]
	delete(p.refused, id)
	return r
}
