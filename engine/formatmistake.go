package engine

import "strings"

// formatNote tells the model that a malformed call counts against its own
// budget (failure_budget.format), not against the failures of calls that ran.
const formatNote = " (this call did not run: it counts against the budget for malformed calls, not against failed actions)"

// malformed reports whether a failed call failed because the model's
// arguments do not fit the tool's inputSchema: they fail it as the model
// sent them, and the call was refused before the tool ran (a hook blocked
// it, or the guard refused it). Arguments a hook clamped into the schema
// that then ran and failed are a failed action. It runs only for a failed
// call, so a successful turn validates nothing twice.
func (tn *Turn) malformed(rt *RegisteredTool, refused bool, reason string) bool {
	g, ok := rt.tool.(*guarded)
	if !ok || tn.args.err != nil || g.validate(tn.args.value) == "" {
		return false
	}
	return refused || strings.HasPrefix(reason, "invalid arguments for "+g.def.Name+":")
}
