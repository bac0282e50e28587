package runlog

// HookVerdict is one hook's decision on one call.
type HookVerdict struct {
	Hook     string         `json:"hook"`
	Phase    string         `json:"phase"` // pre | post
	Decision HookDecision   `json:"decision"`
	Reason   string         `json:"reason,omitempty"`
	Before   map[string]any `json:"before,omitempty"`
	After    map[string]any `json:"after,omitempty"`
}

// HookDecision is what one hook did to one call.
type HookDecision string

// The decisions of the standard hook actions.
const (
	DecisionAllow    HookDecision = "allow"
	DecisionBlock    HookDecision = "block"
	DecisionRewrite  HookDecision = "rewrite"
	DecisionClamp    HookDecision = "clamp"
	DecisionConfirm  HookDecision = "confirm"
	DecisionEvaluate HookDecision = "evaluate"
	DecisionNote     HookDecision = "note"
	// DecisionSkip: the hook's when or rule did not hold.
	DecisionSkip HookDecision = "skip"
)
