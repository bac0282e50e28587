package runlog

import "time"

// FormatConfirmations is the first format with confirmations as data.
const FormatConfirmations = 2

// Confirmation is a person's answer to a confirm hook, recorded as data on
// the hook's decision (Decision.Confirmation) so a replay reads what was
// asked and answered, never the block reason's wording.
type Confirmation struct {
	// By names who answered: the confirmation channel ("terminal",
	// "script", "console", "replay"); empty when no channel could be asked.
	By string `json:"by,omitempty"`
	// Tool, Args and Hook are what was asked about: the call as the hooks
	// before the confirm hook left it, and the confirm hook.
	Tool string         `json:"tool"`
	Args map[string]any `json:"args,omitempty"`
	Hook string         `json:"hook"`
	// Prompt is the question the person was shown.
	Prompt string `json:"prompt,omitempty"`
	// Outcome is approve or deny when the person answered (Answer holds
	// their text), or why no answer came (Error says more).
	Outcome ConfirmOutcome `json:"outcome"`
	Answer  string         `json:"answer,omitempty"`
	Error   string         `json:"error,omitempty"`
	// Time is when the answer (or the failure to get one) came.
	Time time.Time `json:"time"`
}

// ConfirmOutcome is how a confirmation ended.
type ConfirmOutcome string

// Confirmation outcomes. Only ConfirmApprove lets the call run.
const (
	ConfirmApprove ConfirmOutcome = "approve"
	ConfirmDeny    ConfirmOutcome = "deny"
	// ConfirmNoChannel: nothing could take a confirmation (no terminal, a
	// channel that takes none, a replay of such a run).
	ConfirmNoChannel ConfirmOutcome = "no_channel"
	// ConfirmFailed: asking failed (a timeout, a closed terminal); Error
	// says why.
	ConfirmFailed ConfirmOutcome = "failed"
)
