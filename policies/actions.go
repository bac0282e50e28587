package policies

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// PreAction is what one pre-hook does to a call once its when and rule hold.
// It may change c.Args; its Step says whether the chain goes on.
type PreAction func(ctx context.Context, c *PreCall) Step

// PostAction is what one post-hook does after a completed call.
type PostAction func(ctx context.Context, c *PostCall) engine.HookVerdict

// Step is one pre-hook's outcome.
type Step struct {
	Decision string // allow | block | rewrite | clamp | confirm | skip
	Reason   string
	Before   map[string]any
	After    map[string]any
	// Stop ends the chain: allowing the call, or blocking it when Block.
	Stop  bool
	Block bool
}

func block(reason string) Step {
	return Step{Decision: "block", Reason: reason, Stop: true, Block: true}
}

// Actions are the hook implementations a policy dispatches to, by the action
// name a spec gives. Built by the caller: there is no global registry.
type Actions struct {
	Pre  *engine.Registry[PreAction]
	Post *engine.Registry[PostAction]
}

// NewActions returns the default set: allow, block, rewrite, clamp, confirm
// before a call; evaluate and note after it.
func NewActions() *Actions {
	a := &Actions{
		Pre:  engine.NewRegistry[PreAction]("pre-hook action"),
		Post: engine.NewRegistry[PostAction]("post-hook action"),
	}
	// The names are distinct literals, so Register cannot fail here.
	_ = a.Pre.Register("allow", actAllow)
	_ = a.Pre.Register("block", actBlock)
	_ = a.Pre.Register("rewrite", actRewrite)
	_ = a.Pre.Register("clamp", actClamp)
	_ = a.Pre.Register("confirm", actConfirm)
	_ = a.Post.Register("evaluate", actEvaluate)
	_ = a.Post.Register("note", actNote)
	return a
}

func actAllow(_ context.Context, c *PreCall) Step {
	return Step{Decision: "allow", Reason: c.Hook.Reason, Stop: true}
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
func actRewrite(_ context.Context, c *PreCall) Step {
	keys := make([]string, 0, len(c.Rules.Rewrite))
	for k := range c.Rules.Rewrite {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	before := make(map[string]any, len(keys))
	after := make(map[string]any, len(keys))
	for _, k := range keys {
		v, err := c.Eval(c.Rules.Rewrite[k])
		if err != nil {
			return block(fmt.Sprintf("hook %q: rewrite of %q failed: %v", c.Hook.Name, k, err))
		}
		before[k] = c.Args[k]
		after[k] = v
	}
	for k, v := range after {
		c.Args[k] = v
	}
	return Step{Decision: "rewrite", Before: before, After: after}
}

// actClamp limits a numeric argument to [min, max]. A missing or non-numeric
// argument, an empty range or a clamp that would reverse the argument's sign
// (e.g. an admissible distance below zero) blocks: fail closed.
func actClamp(_ context.Context, c *PreCall) Step {
	arg := c.Hook.Clamp.Arg
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
	if c.Rules.ClampMin != nil {
		if lo, err = c.evalFloat(c.Rules.ClampMin); err != nil {
			return block(fmt.Sprintf("hook %q: clamp min: %v", c.Hook.Name, err))
		}
	}
	if c.Rules.ClampMax != nil {
		if hi, err = c.evalFloat(c.Rules.ClampMax); err != nil {
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
	step := Step{Decision: "clamp", Before: map[string]any{arg: raw}, After: map[string]any{arg: nv}}
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
type Confirmer interface {
	Confirm(ctx context.Context, q engine.Question) (string, error)
}

// actConfirm asks the confirmation channel; anything but "yes", or no channel
// at all, blocks: a "yes" typed as an instruction never approves a call.
func actConfirm(ctx context.Context, c *PreCall) Step {
	if c.Confirm == nil {
		return block(fmt.Sprintf("hook %q: the call needs the user's confirmation and no confirmation channel is available "+
			"(answers come only from the controlling terminal, a script channel or a server's confirm endpoint, never from the instructions)", c.Hook.Name))
	}
	prompt := c.Hook.Prompt
	if prompt == "" {
		prompt = fmt.Sprintf("Allow %s with %v?", c.Env.Tool.Name, c.Args)
	}
	ans, err := c.Confirm.Confirm(ctx, engine.Question{Text: prompt, Choices: []string{"yes", "no"}})
	if err != nil {
		return block(fmt.Sprintf("hook %q: asking for confirmation failed: %v", c.Hook.Name, err))
	}
	if !strings.EqualFold(strings.TrimSpace(ans), "yes") {
		r := c.Hook.Reason
		if r == "" {
			r = "the user did not confirm the call"
		}
		return block(fmt.Sprintf("%s (answer %q)", r, ans))
	}
	return Step{Decision: "confirm", Reason: "the user confirmed"}
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
