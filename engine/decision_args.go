package engine

import "encoding/json"

// ParsedArgs is what parsing a call's arguments gave: a value or an error.
type ParsedArgs struct {
	Value any
	Err   error
}

// decisionArgs keeps the first call's arguments as decide parsed them, so
// that execute need not parse the same bytes again. raw is a copy: the
// response's bytes could be changed in place by a stage in between.
type decisionArgs struct {
	raw    string
	parsed ParsedArgs
	set    bool
}

// KeepDecisionArgs records what parsing raw, the arguments of the turn's
// first call, gave; SetDecision forgets it.
func (tn *Turn) KeepDecisionArgs(raw json.RawMessage, p ParsedArgs) {
	tn.args = decisionArgs{raw: string(raw), parsed: p, set: true}
}

// DecisionArgs returns what KeepDecisionArgs recorded, when it recorded it
// for exactly these bytes (a stage in between may have replaced the call).
// The value is shared with whoever kept it: a caller that changes it copies
// it first.
func (tn *Turn) DecisionArgs(raw json.RawMessage) (ParsedArgs, bool) {
	if a := tn.args; a.set && a.raw == string(raw) {
		return a.parsed, true
	}
	return ParsedArgs{}, false
}
