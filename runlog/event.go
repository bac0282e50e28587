package runlog

import (
	"time"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/world"
)

// EventKind names an event of a task's stream.
type EventKind string

// Event kinds. Exactly one EventDone ends every fully consumed stream.
const (
	EventTaskStart   EventKind = "task_start"
	EventContext     EventKind = "context"      // context built: tokens per lifetime
	EventObservation EventKind = "observation"  // a fresh Observation (images saved by the run log)
	EventModel       EventKind = "model"        // model response: progress text, tool call
	EventHook        EventKind = "hook"         // one hook decision
	EventToolCall    EventKind = "tool_call"    // a call about to execute (after pre-hooks)
	EventToolResult  EventKind = "tool_result"  // its envelope
	EventEvaluation  EventKind = "evaluation"   // evaluator verdict
	EventCompaction  EventKind = "compaction"   // a checkpoint written, or a failed attempt
	EventNotify      EventKind = "notification" // notify_user
	EventQuestion    EventKind = "question"     // query_user and its answer
	EventReplan      EventKind = "replan"       // instruction revised inside the task
	EventCancel      EventKind = "cancel"
	EventMemory      EventKind = "memory"     // consolidation outcome
	EventScene       EventKind = "scene"      // the Brief (no tool), or a confirmed call's effects on the Scene Graph
	EventSinkError   EventKind = "sink_error" // a sink lost an event: sent to the others
	// EventSafety: what happened to an interrupted physical call (a late
	// reply, a stop tool's outcome, a killed back-end, a failed observation,
	// uncertainty cleared). Text starts with its kind.
	EventSafety EventKind = "safety"
	// EventModelRetry: a model call's attempt failed and is retried (see
	// model.Retry); the call's own outcome follows in its model_call event.
	EventModelRetry EventKind = "model_retry"
	EventDone       EventKind = "done"
)

// DoneReason says why a task ended.
type DoneReason string

// Reasons a task ends.
const (
	DoneFinal         DoneReason = "final_answer"
	DoneMaxTurns      DoneReason = "max_turns"
	DoneFailureBudget DoneReason = "failure_budget"
	DoneLoopDetected  DoneReason = "loop_detected"
	DoneCancelled     DoneReason = "cancelled"
	DoneError         DoneReason = "error"
)

// Event is one thing that happened in a task. Payload fields are set by kind.
type Event struct {
	Kind EventKind `json:"kind"`
	Time time.Time `json:"time"`
	Task int       `json:"task"`
	Turn int       `json:"turn"`

	Text   string         `json:"text,omitempty"`
	Tool   string         `json:"tool,omitempty"`
	CallID string         `json:"call_id,omitempty"`
	Args   map[string]any `json:"args,omitempty"`
	Result *Envelope      `json:"result,omitempty"`

	Hook        *Decision          `json:"hook,omitempty"`
	Verdict     *world.Verdict     `json:"verdict,omitempty"`
	Observation *world.Observation `json:"observation,omitempty"`
	Tokens      *TokenCounts       `json:"tokens,omitempty"`
	Compaction  *CompactionInfo    `json:"compaction,omitempty"`
	Done        *Report            `json:"done,omitempty"`
	// Safety is what happened to a back-end (EventSafety): late_reply, stop,
	// backend_killed, backend_crashed, ….
	Safety SafetyKind `json:"safety,omitempty"`
	// Stop is how an interrupted motion was stopped (EventSafety of kind
	// stop or backend_killed): the stop tool or a kill, and how long it took.
	Stop *StopCall `json:"stop,omitempty"`
	// Usage is what the provider reported for a model call (EventModel).
	Usage *model.Usage `json:"usage,omitempty"`
	// ModelCall is one model call of any purpose (EventModelCall).
	ModelCall *ModelCall `json:"model_call,omitempty"`
	// Retry is one retried attempt of a model call (EventModelRetry).
	Retry *model.Retry `json:"retry,omitempty"`
	// Episode says what produced the run (EventTaskStart).
	Episode *EpisodeInfo `json:"episode,omitempty"`
	// Handover is an operator's pause or hand back (EventHandover).
	Handover *Handover `json:"handover,omitempty"`
	// Images travel with observation and tool-result events so the run log
	// can save them as files; they are never written inline.
	Images []world.Image `json:"-"`
}

// Report ends a task: the final text and why it ended.
type Report struct {
	Text   string     `json:"text"`
	Reason DoneReason `json:"reason"`
	Turns  int        `json:"turns"`
	Error  string     `json:"error,omitempty"`
	RunDir string     `json:"run_dir,omitempty"`
	// Usage adds up the tokens the acting model's calls used in the task.
	Usage model.Usage `json:"usage"`
}

// SafetyKind names what happened to a back-end in an EventSafety.
type SafetyKind string

// Safety kinds the engine reads or emits itself; the toolsets name the rest.
const (
	// SafetyLateReply: an abandoned physical call answered after its
	// timeout or cancellation; the body may have moved, so the model is told.
	SafetyLateReply SafetyKind = "late_reply"
	// SafetyStopPending: a stop path (see TaskStream.Hold) had not ended within
	// its bound when the task ended; what it reports later reaches the next
	// task.
	SafetyStopPending SafetyKind = "stop_pending"
)

// StopCall is one stop of an interrupted motion: the declared stop tool
// called, or the back-end killed after stop_grace (or when the session
// closed). The stop tool's result, or the kill's reason, is the event's
// Result.
type StopCall struct {
	// Via is "tool" (the declared stop tool), "cancel" (the kind's own
	// cancel, such as an action goal's) or "kill" (the back-end's process
	// group, or its connection).
	Via string `json:"via"`
	// Tool is the stop tool called (Via "tool"), or the declared stop (Via
	// "declared": "service /dashboard_client/stop").
	Tool string `json:"tool,omitempty"`
	// Why is what interrupted the motion: "move_base was cancelled",
	// "move_base timed out", "the session closed".
	Why string `json:"why"`
	// OK says the stop worked: the stop tool answered success; the killed
	// back-end exited and the motion's call ended.
	OK bool `json:"ok"`
	// DurationMS is how long the stop took, in milliseconds: the stop
	// tool's call, or from the kill until the motion's call ended.
	DurationMS float64 `json:"duration_ms"`
}

// Stop kinds (StopCall.Via).
const (
	StopViaTool   = "tool"
	StopViaCancel = "cancel"
	StopViaKill   = "kill"
	// StopViaDeclared is a toolset's declared stop path (a rosbridge
	// toolset's stop: a service, an action goal or a bounded publish),
	// run when a motion is given up; Tool names it.
	StopViaDeclared = "declared"
)

// Millis is d in milliseconds, to the microsecond (StopCall.DurationMS).
func Millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// SafetyOperatorClear: an operator cleared the body's uncertain state (after
// checking the robot). Emitted between tasks, it opens the next task's
// stream and run log.
const SafetyOperatorClear SafetyKind = "operator_clear"

// TokenCounts are estimated tokens per context lifetime of one request.
type TokenCounts struct {
	Resident    int `json:"resident"`
	Refreshed   int `json:"refreshed"`
	Accumulated int `json:"accumulated"`
	Total       int `json:"total"`
}

// CompactionInfo describes one compaction attempt.
type CompactionInfo struct {
	OK             bool   `json:"ok"`
	Error          string `json:"error,omitempty"`
	Rounds         int    `json:"rounds"`
	MessagesBefore int    `json:"messages_before"`
	MessagesAfter  int    `json:"messages_after"`
	TokensBefore   int    `json:"tokens_before"`
	TokensAfter    int    `json:"tokens_after"`
	// Kind and Source are the checkpoint's stable metadata (as on its message).
	Kind   string `json:"kind,omitempty"`
	Source string `json:"source,omitempty"`
}

// CheckpointKind is the stable kind of a compaction checkpoint message
// (Message.Meta["kind"]), so later compactions and run-log readers find it.
const CheckpointKind = "compaction_checkpoint"
