package schema

import "github.com/thea-harness/thea/world"

// RuleTest is one test run by `thea validate`: either a call sent through
// the pre-hook chain (Call), or a tool contract's check judged on given
// observations (Check).
type RuleTest struct {
	Name string    `json:"name"`
	Call *TestCall `json:"call,omitempty"`
	// Check tests a tool contract's check expression.
	Check *CheckTest `json:"check,omitempty"`
	// Clearance is the fresh reading the chain takes (by sector).
	Clearance world.Clearance `json:"clearance,omitempty"`
	// Readings are the fresh safety readings the chain takes (by name).
	Readings map[string]any `json:"readings,omitempty"`
	// Observation is the current observation rules read as `observation`.
	Observation *world.Observation `json:"observation,omitempty"`
	// Limits override the embodiment's limits (fixed or declared) for the test.
	Limits map[string]float64 `json:"limits,omitempty"`
	// Confirm is the user's answer to every confirm hook during the test.
	Confirm *bool `json:"confirm,omitempty"`
	// Answers are the user's answers to the confirmations in the order the
	// chain asks them; confirmations beyond the list get Confirm.
	Answers []bool     `json:"answers,omitempty"`
	Expect  TestExpect `json:"expect"`
}

// CheckTest is a tool call's outcome, judged by the tool's check.
type CheckTest struct {
	Tool   string            `json:"tool"`
	Args   map[string]any    `json:"args,omitempty"`
	Before world.Observation `json:"before"`
	After  world.Observation `json:"after"`
	// Result is the call's envelope value; the call succeeded.
	Result map[string]any `json:"result,omitempty"`
}

// TestCall is the call a rule test sends through the pre-hook chain.
type TestCall struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args,omitempty"`
}

// TestExpect is what a rule test expects of the chain.
type TestExpect struct {
	Verdict string `json:"verdict"` // allow | block (call); success | failure (check)
	// Args are expected argument values after rewrite and clamp (a subset).
	Args           map[string]any `json:"args,omitempty"`
	Hook           string         `json:"hook,omitempty"`
	ReasonContains string         `json:"reason_contains,omitempty"`
}
