package schema

import "github.com/expr-lang/expr/vm"

// Rules holds every expr rule of a spec, compiled once at load time against
// CallEnv (hooks) or CheckEnv (tool checks). Slices are indexed like
// Spec.Hooks.Pre / Spec.Hooks.Post; a nil program means the field was empty.
type Rules struct {
	Pre    []PreRules
	Post   []PostRules
	Checks map[string]*vm.Program // by tool name
	// VerifyArgs are a verifier's argument expressions, by tool name and
	// argument.
	VerifyArgs map[string]map[string]*vm.Program
	// Effects are each tool's compiled Scene Graph effects, in spec order.
	Effects map[string][]CompiledEffect
}

// PreRules are the compiled expressions of one pre-hook.
type PreRules struct {
	When *vm.Program
	Rule *vm.Program
	// Exprs are the action's own expressions (HookExprs), by their field
	// ("rewrite.speed", "clamp.max"); an empty one is nil.
	Exprs map[string]*vm.Program
	// ReadsClearance is true when any expression of the hook (its when
	// included) reads `clearance`: the chain takes a fresh reading first.
	ReadsClearance bool
	// ReadsReadings: the same for `readings` (the named safety readings).
	ReadsReadings bool
}

// PostRules are the compiled expressions of one post-hook.
type PostRules struct {
	When *vm.Program
}
