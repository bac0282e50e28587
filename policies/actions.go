package policies

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// PreAction is what one pre-hook does to a call once its when and rule hold.
// It may change c.Args; its Step says whether the chain goes on.
type PreAction func(ctx context.Context, c *PreCall) Step

// PostAction is what one post-hook does after a completed call.
type PostAction func(ctx context.Context, c *PostCall) runlog.Decision

// Step is one pre-hook's outcome.
type Step struct {
	Decision runlog.DecisionKind
	Reason   string
	Before   map[string]any
	After    map[string]any
	// Stop ends the chain: allowing the call, or blocking it when Block.
	Stop  bool
	Block bool
	// Confirmation is a confirm hook's question and the person's answer,
	// recorded as data on the hook's decision.
	Confirmation *runlog.Confirmation
}

func block(reason string) Step {
	return Step{Decision: runlog.DecisionBlock, Reason: reason, Stop: true, Block: true}
}

// PreActionKind is a pre-hook action as a component: its name, its own
// fields in the hook's section (Config, CUE; see schema.Descriptor), what
// it needs of them, and what it does. TypedPreAction builds one over its
// config type.
type PreActionKind struct {
	Name     string
	Doc      string
	Config   any
	CUE      string
	Validate func(*schema.Check)
	Run      PreAction
}

// Describe implements engine.Component.
func (k PreActionKind) Describe() schema.Descriptor {
	return schema.Descriptor{Kind: schema.KindPreAction, Name: k.Name, Doc: k.Doc, Validate: k.Validate, Config: k.Config, CUE: k.CUE}
}

// TypedPreAction is a pre-hook action over its own config type T: validate
// (which may be nil) and run receive the hook's Config as a T (T's zero
// value when the hook carries none, as one built in Go may).
func TypedPreAction[T any](name, doc, cue string, validate func(c *schema.Check, h schema.PreHook, cfg T),
	run func(ctx context.Context, c *PreCall, cfg T) Step) PreActionKind {
	var zero T
	k := PreActionKind{Name: name, Doc: doc, Config: zero, CUE: cue,
		Run: func(ctx context.Context, c *PreCall) Step {
			cfg, err := schema.ConfigAs[T](c.Hook.Config)
			if err != nil { // fail closed: the hook cannot do what it says
				return block(fmt.Sprintf("hook %q (%s): %v", c.Hook.Name, name, err))
			}
			return run(ctx, c, cfg)
		}}
	if validate != nil {
		k.Validate = schema.Typed(validate)
	}
	return k
}

// PostActionKind is a post-hook action as a component.
type PostActionKind struct {
	Name     string
	Doc      string
	Config   any
	CUE      string
	Validate func(*schema.Check)
	Run      PostAction
	// Judge: the action decides the call's verdict, so it fails closed: a
	// when rule that errors still runs it, and a panic is a failure verdict.
	Judge bool
}

// Describe implements engine.Component.
func (k PostActionKind) Describe() schema.Descriptor {
	return schema.Descriptor{Kind: schema.KindPostAction, Name: k.Name, Doc: k.Doc, Validate: k.Validate, Config: k.Config, CUE: k.CUE}
}

// TypedPostAction is a post-hook action over its own config type T (see
// TypedPreAction).
func TypedPostAction[T any](name, doc, cue string, validate func(c *schema.Check, h schema.PostHook, cfg T),
	run func(ctx context.Context, c *PostCall, cfg T) runlog.Decision) PostActionKind {
	var zero T
	k := PostActionKind{Name: name, Doc: doc, Config: zero, CUE: cue,
		Run: func(ctx context.Context, c *PostCall) runlog.Decision {
			cfg, err := schema.ConfigAs[T](c.Hook.Config)
			if err != nil {
				return runlog.Decision{Decision: runlog.DecisionSkip, Reason: fmt.Sprintf("hook %q (%s): %v", c.Hook.Name, name, err)}
			}
			return run(ctx, c, cfg)
		}}
	if validate != nil {
		k.Validate = schema.Typed(validate)
	}
	return k
}

// Components are the hook actions this package provides: allow, block,
// rewrite, clamp, confirm before a call; evaluate and note after it.
func Components() []engine.Component {
	return []engine.Component{
		PreActionKind{Name: "allow", Doc: "allow the call when rule holds (ends the chain)", Run: actAllow},
		PreActionKind{Name: "block", Doc: "block the call when rule holds", Run: actBlock},
		TypedPreAction("rewrite", "set arguments to expr values", rewriteCUE, validateRewrite, actRewrite),
		TypedPreAction("clamp", "limit a numeric argument to [min, max]", clampCUE, validateClamp, actClamp),
		TypedPreAction("confirm", "ask the user to confirm the call", confirmCUE, nil, actConfirm),
		PostActionKind{Name: "evaluate", Doc: "judge the tool's post-condition (hidden evaluator)", Run: actEvaluate, Judge: true},
		TypedPostAction("note", "add a line to the Task Notes timeline", noteCUE, validateNote, actNote),
	}
}

func validateRewrite(c *schema.Check, _ schema.PreHook, cfg RewriteConfig) {
	if len(cfg.Rewrite) == 0 {
		c.ErrorfAtKey(".action", "a rewrite hook needs rewrite: {arg: expr}")
	}
}

func validateNote(c *schema.Check, _ schema.PostHook, cfg NoteConfig) {
	if cfg.Note == "" {
		c.ErrorfAtKey(".action", "a note hook needs note")
	}
}

func validateClamp(c *schema.Check, _ schema.PreHook, cfg ClampConfig) {
	cl := cfg.Clamp
	switch {
	case cl == nil:
		c.ErrorfAtKey(".action", "a clamp hook needs clamp: {arg, min, max}")
	case cl.Min == "" && cl.Max == "":
		c.ErrorfAtKey(".clamp", "a clamp needs min, max or both")
	case cl.Min == "" || cl.Max == "":
		missing, given, example := "min", "max", "a negative value (backwards motion) passes unchanged"
		if cl.Max == "" {
			missing, given, example = "max", "min", "any large value passes unchanged"
		}
		c.WarnfAtKey(".clamp", "the clamp of %q has %s but no %s: %s; bound it both ways (a value the clamp would have to flip in sign is blocked)",
			cl.Arg, given, missing, example)
	}
}

// Actions are the hook implementations a policy dispatches to, by the action
// name a spec gives; Judges are the post actions that judge (see
// PostActionKind.Judge).
type Actions struct {
	Pre    map[string]PreAction
	Post   map[string]PostAction
	Judges map[string]bool
}

// NewActions returns this package's actions (see Components).
func NewActions() *Actions {
	a, _ := actionsOf(Components())
	return a
}

// actionsOf collects the hook actions among components.
func actionsOf(comps []engine.Component) (*Actions, error) {
	a := &Actions{Pre: map[string]PreAction{}, Post: map[string]PostAction{}, Judges: map[string]bool{}}
	for _, c := range comps {
		switch k := c.(type) {
		case PreActionKind:
			a.Pre[k.Name] = k.Run
		case PostActionKind:
			a.Post[k.Name] = k.Run
			a.Judges[k.Name] = k.Judge
		}
	}
	return a, nil
}

func actAllow(_ context.Context, c *PreCall) Step {
	return Step{Decision: runlog.DecisionAllow, Reason: c.Hook.Reason, Stop: true}
}

func actBlock(_ context.Context, c *PreCall) Step {
	reason := c.Hook.Reason
	if reason == "" {
		reason = fmt.Sprintf("blocked by hook %q", c.Hook.Name)
	}
	return block(reason)
}

// actRewrite evaluates every new value against the arguments as they were
// before the hook, then sets them all.
func actRewrite(_ context.Context, c *PreCall, cfg RewriteConfig) Step {
	keys := slices.Sorted(maps.Keys(cfg.Rewrite))
	before := make(map[string]any, len(keys))
	after := make(map[string]any, len(keys))
	for _, k := range keys {
		v, err := c.Eval(c.Rules.Exprs["rewrite."+k])
		if err != nil {
			return block(fmt.Sprintf("hook %q: rewrite of %q failed: %v", c.Hook.Name, k, err))
		}
		before[k] = c.Args[k]
		after[k] = v
	}
	for k, v := range after {
		c.Args[k] = v
	}
	return Step{Decision: runlog.DecisionRewrite, Before: before, After: after}
}

// actClamp limits a numeric argument to [min, max]. A missing or non-numeric
// argument, an empty range or a clamp that would reverse the argument's sign
// (e.g. an admissible distance below zero) blocks: fail closed.
func actClamp(_ context.Context, c *PreCall, cfg ClampConfig) Step {
	if cfg.Clamp == nil || cfg.Clamp.Arg == "" {
		return block(fmt.Sprintf("hook %q: a clamp hook needs clamp.arg; the call is blocked", c.Hook.Name))
	}
	arg := cfg.Clamp.Arg
	raw, ok := c.Args[arg]
	if !ok {
		return block(fmt.Sprintf("hook %q: argument %q is missing, cannot clamp it", c.Hook.Name, arg))
	}
	v, ok := toFloat(raw)
	if !ok {
		return block(fmt.Sprintf("hook %q: argument %q is %T, not a number", c.Hook.Name, arg, raw))
	}
	lo, hi := math.Inf(-1), math.Inf(1)
	var err error
	if p := c.Rules.Exprs["clamp.min"]; p != nil {
		if lo, err = c.evalFloat(p); err != nil {
			return block(fmt.Sprintf("hook %q: clamp min: %v", c.Hook.Name, err))
		}
	}
	if p := c.Rules.Exprs["clamp.max"]; p != nil {
		if hi, err = c.evalFloat(p); err != nil {
			return block(fmt.Sprintf("hook %q: clamp max: %v", c.Hook.Name, err))
		}
	}
	if math.IsNaN(v) || math.IsNaN(lo) || math.IsNaN(hi) {
		return block(fmt.Sprintf("hook %q: clamp of %s: not a number (value %g, bounds [%g, %g])", c.Hook.Name, arg, v, lo, hi))
	}
	if lo > hi {
		return block(fmt.Sprintf("%s: no admissible value for %s (max %.3g is below min %.3g)", reason(c.Hook), arg, hi, lo))
	}
	nv := min(max(v, lo), hi)
	if (v > 0 && nv < 0) || (v < 0 && nv > 0) {
		return block(fmt.Sprintf("%s: %s %.3g cannot be clamped without reversing it (admissible bound %.3g)", reason(c.Hook), arg, v, nv))
	}
	step := Step{Decision: runlog.DecisionClamp, Before: map[string]any{arg: raw}, After: map[string]any{arg: nv}}
	if nv != v {
		step.Reason = fmt.Sprintf("%s clamped from %g to %g", arg, v, nv)
		c.Args[arg] = nv
	} else {
		step.Reason = fmt.Sprintf("%s within bounds", arg)
		step.After[arg] = raw
	}
	return step
}

func reason(h *schema.PreHook) string {
	if h.Reason != "" {
		return h.Reason
	}
	return fmt.Sprintf("hook %q", h.Name)
}

// Confirmer is where confirm hooks get their answers: a channel that is never
// the instruction stream (the controlling terminal, a script in tests, a
// server's confirm endpoint). A user channel offers one by implementing it.
type Confirmer = engine.Confirmer

// ErrNoConfirmChannel: nothing can take a confirmation, so a confirm hook
// blocks. A Confirmer returns it too when it stands for such a session (a
// replay of a run that had no channel), so the block reads the same.
var ErrNoConfirmChannel = errors.New("the call needs the user's confirmation and no confirmation channel is available " +
	"(answers come only from the controlling terminal, a script channel or a server's confirm endpoint, never from the instructions)")

// actConfirm asks the confirmation channel; anything but "yes", or no channel
// at all, blocks: a "yes" typed as an instruction never confirms a call.
func actConfirm(ctx context.Context, c *PreCall, cfg ConfirmConfig) Step {
	prompt := cfg.Prompt
	if prompt == "" {
		prompt = fmt.Sprintf("Allow %s with %v?", c.Env.Tool.Name, c.Args)
	}
	asked := &runlog.Confirmation{Tool: c.Env.Tool.Name, Args: maps.Clone(c.Args), Hook: c.Hook.Name, Prompt: prompt}
	// ended records how the confirmation ended on the step that says so.
	ended := func(s Step, o runlog.ConfirmOutcome, answer string, err error) Step {
		asked.Outcome, asked.Answer, asked.Time = o, answer, time.Now().UTC()
		if err != nil {
			asked.Error = err.Error()
		}
		s.Confirmation = asked
		return s
	}
	noChannel := func() Step {
		asked.By = ""
		return ended(block(fmt.Sprintf("hook %q: %v", c.Hook.Name, ErrNoConfirmChannel)), runlog.ConfirmNoChannel, "", ErrNoConfirmChannel)
	}
	if c.Confirm == nil {
		return noChannel()
	}
	asked.By = engine.ChannelNameFor(ctx, c.Confirm)
	call := &engine.ConfirmCall{Tool: c.Env.Tool.Name, Args: maps.Clone(c.Args), Hook: c.Hook.Name}
	ans, err := c.Confirm.Confirm(ctx, engine.Question{Kind: engine.QuestionConfirm, Text: prompt, Choices: []string{"yes", "no"}, Call: call})
	if errors.Is(err, ErrNoConfirmChannel) {
		return noChannel()
	}
	if err != nil {
		return ended(block(fmt.Sprintf("hook %q: asking for confirmation failed: %v", c.Hook.Name, err)), runlog.ConfirmFailed, "", err)
	}
	if !strings.EqualFold(strings.TrimSpace(ans), "yes") {
		r := c.Hook.Reason
		if r == "" {
			r = "the user did not confirm the call"
		}
		return ended(block(fmt.Sprintf("%s (answer %q)", r, ans)), runlog.ConfirmDeny, ans, nil)
	}
	return ended(Step{Decision: runlog.DecisionConfirm, Reason: "the user confirmed"}, runlog.ConfirmApprove, ans, nil)
}

// toFloat reads a JSON or Go number.
func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int8:
		return float64(n), true
	case int16:
		return float64(n), true
	case int32:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint:
		return float64(n), true
	case uint8:
		return float64(n), true
	case uint16:
		return float64(n), true
	case uint32:
		return float64(n), true
	case uint64:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}
