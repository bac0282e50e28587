package schema

// HookExprs is a hook action's config whose fields the rules read: its
// expressions over the call (a rewrite's values, a clamp's bounds), compiled
// once at load with the hook's when and rule and reported at their fields,
// and the fields that name a call argument (a rewrite's keys, a clamp's
// arg), which `thea validate --live` checks against the tools' input
// schemas. The action reads its compiled expressions from PreRules.Exprs.
type HookExprs interface {
	HookExprs() []HookExpr
	HookArgs() []HookArg
}

// HookExpr is one expression of a hook action's config.
type HookExpr struct {
	// Field is its path inside the hook: "rewrite.speed", "clamp.max".
	Field string
	Src   string
	// Number: it must give a number (a clamp's bound).
	Number bool
	// NonEmpty: an empty expression is an error (a rewrite's value); else
	// it compiles to no program (a clamp's missing bound).
	NonEmpty bool
}

// HookArg is one field of a hook action's config that names a call
// argument.
type HookArg struct {
	// Field is its path inside the hook: "clamp.arg", "rewrite.speed".
	Field string
	Arg   string
}

// hookExprs are the expressions of a pre-hook's action config (none when it
// has none).
func (h PreHook) hookExprs() []HookExpr {
	if x, ok := h.Config.(HookExprs); ok {
		return x.HookExprs()
	}
	return nil
}

// hookArgs are the fields of a pre-hook's action config that name an
// argument.
func (h PreHook) hookArgs() []HookArg {
	if x, ok := h.Config.(HookExprs); ok {
		return x.HookArgs()
	}
	return nil
}
