package policies

import (
	"maps"
	"slices"

	"github.com/thea-harness/thea/schema"
)

// The hook actions' own fields: each action's section beside every hook's
// (name, when, action, rule, reason), decoded at load into its type
// (schema.PreHook.Config, schema.PostHook.Config). The expressions among
// them are compiled with the hook's when and rule (schema.HookExprs).

// RewriteConfig is a rewrite hook's own fields.
type RewriteConfig struct {
	// Rewrite maps an argument name to an expr giving its new value.
	Rewrite map[string]string `json:"rewrite,omitempty"`
}

const rewriteCUE = `// The arguments to set, each an expr over the call giving its new value.
rewrite?: [string]: string
`

// HookExprs are the new values, by argument.
func (r RewriteConfig) HookExprs() []schema.HookExpr {
	var out []schema.HookExpr
	for _, k := range slices.Sorted(maps.Keys(r.Rewrite)) {
		out = append(out, schema.HookExpr{Field: "rewrite." + k, Src: r.Rewrite[k], NonEmpty: true})
	}
	return out
}

// HookArgs are the arguments set.
func (r RewriteConfig) HookArgs() []schema.HookArg {
	var out []schema.HookArg
	for _, k := range slices.Sorted(maps.Keys(r.Rewrite)) {
		out = append(out, schema.HookArg{Field: "rewrite." + k, Arg: k})
	}
	return out
}

// ClampConfig is a clamp hook's own fields.
type ClampConfig struct {
	Clamp *Clamp `json:"clamp,omitempty"`
}

// Clamp limits one numeric argument to bounds given as expr over CallEnv.
type Clamp struct {
	Arg string `json:"arg"`
	Min string `json:"min,omitempty"`
	Max string `json:"max,omitempty"`
}

const clampCUE = `// The argument to bound and its bounds.
clamp?: {
	// The numeric argument to bound.
	arg!: #NonEmpty
	// The lowest value allowed: an expr over the call (limits.min_clearance_m,
	// 0).
	min?: #NonEmpty
	// The highest value allowed: an expr over the call (limits.max_speed_mps).
	max?: #NonEmpty
}
`

// HookExprs are the bounds (an empty one is no bound).
func (c ClampConfig) HookExprs() []schema.HookExpr {
	if c.Clamp == nil {
		return nil
	}
	return []schema.HookExpr{{Field: "clamp.min", Src: c.Clamp.Min, Number: true}, {Field: "clamp.max", Src: c.Clamp.Max, Number: true}}
}

// HookArgs is the argument bounded.
func (c ClampConfig) HookArgs() []schema.HookArg {
	if c.Clamp == nil {
		return nil
	}
	return []schema.HookArg{{Field: "clamp.arg", Arg: c.Clamp.Arg}}
}

// ConfirmConfig is a confirm hook's own fields.
type ConfirmConfig struct {
	// Prompt is the question the user is asked; empty: one naming the call.
	Prompt string `json:"prompt,omitempty"`
}

const confirmCUE = `// The question the user is asked; not set: one naming the tool and its
// arguments.
prompt?: string
`

// NoteConfig is a note hook's own fields.
type NoteConfig struct {
	// Note is the text added to the Task Notes timeline.
	Note string `json:"note,omitempty"`
}

const noteCUE = `// The line added to the Task Notes timeline.
note?: string
`

var (
	_ schema.HookExprs = RewriteConfig{}
	_ schema.HookExprs = ClampConfig{}
)
