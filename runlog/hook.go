package runlog

// Decision is one hook's decision on one call: the payload of an EventHook.
// It is never a verdict: a verdict is the evaluator's judgement of a call's
// outcome (world.Verdict, EventEvaluation).
type Decision struct {
	Hook     string         `json:"hook"`
	Phase    string         `json:"phase"` // pre | post
	Decision DecisionKind   `json:"decision"`
	Reason   string         `json:"reason,omitempty"`
	Before   map[string]any `json:"before,omitempty"`
	After    map[string]any `json:"after,omitempty"`
	// Confirmation is the person's answer to a confirm hook (decision
	// confirm or block); nil for every other hook and in run logs recorded
	// before confirmations were data.
	Confirmation *Confirmation `json:"confirmation,omitempty"`
}

// DecisionKind is what one hook did to one call (the action it took, or
// skip).
type DecisionKind string

// The decisions of the standard hook actions.
const (
	DecisionAllow    DecisionKind = "allow"
	DecisionBlock    DecisionKind = "block"
	DecisionRewrite  DecisionKind = "rewrite"
	DecisionClamp    DecisionKind = "clamp"
	DecisionConfirm  DecisionKind = "confirm"
	DecisionEvaluate DecisionKind = "evaluate"
	DecisionNote     DecisionKind = "note"
	// DecisionSkip: the hook's when or rule did not hold.
	DecisionSkip DecisionKind = "skip"
)
