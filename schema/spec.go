package schema

// Spec is the decoded, validated plan of one robot. It is built once by Load and
// never mutated afterwards: the run reads it, it never re-reads configuration.
// Every field mirrors a field of the embedded CUE schema (schema/cue/*.cue); the
// defaults live there, not here.
type Spec struct {
	Name         string                  `json:"name"`
	Description  string                  `json:"description,omitempty"`
	SystemPrompt string                  `json:"system_prompt"`
	Model        Model                   `json:"model"`
	Evaluator    Evaluator               `json:"evaluator"`
	Embodiment   Embodiment              `json:"embodiment"`
	Observation  ObservationSource       `json:"observation"`
	Toolsets     map[string]Toolset      `json:"toolsets"`
	Tools        map[string]ToolContract `json:"tools"`
	Hooks        Hooks                   `json:"hooks"`
	Context      ContextConfig           `json:"context"`
	Memory       Memory                  `json:"memory"`
	Skills       Skills                  `json:"skills"`
	Safety       Safety                  `json:"safety"`
	User         User                    `json:"user"`
	Loop         Loop                    `json:"loop"`
	SceneGraph   SceneGraph              `json:"scene_graph"`
	RunLog       RunLog                  `json:"run_log"`
	Episodes     Episodes                `json:"episodes"`
	Tests        []RuleTest              `json:"tests,omitempty"`

	// Dir is the directory of the first spec file; relative paths in the spec
	// (scripts, skills dirs, memory dir, cwd) resolve against it.
	Dir string `json:"-"`
	// Files are the spec files this plan was loaded from, in load order.
	Files []string `json:"-"`
	// Rules holds every expr rule of the spec compiled once at load time.
	Rules *Rules `json:"-"`
	// Warnings are problems that do not stop a run (a clamp bounded one way,
	// physical tools with no declared stop); `thea validate` prints them.
	Warnings []Diagnostic `json:"-"`

	// pos maps spec paths to where the user wrote them; see Spec.Pos.
	pos posMap
	// argPos: where each argument an expression reads stands in the file
	// (argPosKey); see ArgRead.At.
	argPos map[string]Pos
	// transportPhysical: the tools the toolsets' kinds run as motions
	// whatever the contracts say; see TransportPhysical.
	transportPhysical map[string]bool
}

// Model selects a model provider. Its provider (a registered component)
// decides what else it has: Config holds the provider's own section, decoded
// into the provider's registered config type (see Descriptor.Config), so each
// provider validates exactly its own fields. Secrets never live in the spec:
// a provider names the environment variable that holds its key.
type Model struct {
	Provider string `json:"provider"`
	// Timeout and Retries bound each request of a provider that calls a
	// server; they are every provider's, so a spec keeps them when it swaps
	// its provider.
	Timeout Duration `json:"timeout"`
	Retries int      `json:"retries"`

	// Config is the provider's own section as its registered config type (a
	// value, not a pointer); nil for a provider that registers none.
	Config any `json:"-"`
}

// ModelNamer is a provider's config that names the model it calls: the run
// log and the trace show "<provider>/<name>".
type ModelNamer interface {
	ModelName() string
}

// Label is how the run log and the trace name the model: its provider, and
// the model's name when its provider's config gives one.
func (m Model) Label() string {
	if n, ok := m.Config.(ModelNamer); ok && n.ModelName() != "" {
		return m.Provider + "/" + n.ModelName()
	}
	return m.Provider
}

// Evaluator configures the hidden evaluate_run post-hook.
type Evaluator struct {
	// Model judges post-conditions; nil means the main model.
	Model *Model `json:"model,omitempty"`
	// Evidence is the tool called after an evaluated tool to obtain the
	// post-execution Observation for its run; empty means Observation.Tool.
	Evidence string `json:"evidence,omitempty"`
	// RunIDArg is the argument of the evidence tool that receives the run id
	// (empty: the evidence tool takes no run id).
	RunIDArg string `json:"run_id_arg,omitempty"`
	// VerdictThreshold is the minimum confidence for a model "success" verdict.
	VerdictThreshold float64 `json:"verdict_threshold"`
}

// ObservationSource binds the Observation slot to a tool called before every
// model call.
type ObservationSource struct {
	Tool string         `json:"tool,omitempty"`
	Args map[string]any `json:"args,omitempty"`
}

// ToolContract is the spec's side of one tool's contract. The back-end gives
// name, description and inputSchema; the spec adds what only the harness reads.
type ToolContract struct {
	// Description is appended to the back-end's description (the model sees it).
	Description string   `json:"description,omitempty"`
	Tags        []string `json:"tags,omitempty"`
	// PostCondition is read only by the evaluator, never by the acting model.
	PostCondition string `json:"post_condition,omitempty"`
	// Check is an optional deterministic expr over CheckEnv that decides the
	// verdict instead of the evaluator model.
	Check string `json:"check,omitempty"`
	// Verify names a back-end tool whose result is the verdict (a grasp
	// verifier, a learned success detector). Its result reaches only the
	// evaluator, never the acting model.
	Verify   *Verify  `json:"verify,omitempty"`
	Timeout  Duration `json:"timeout"`
	Physical bool     `json:"physical"`
	// Hidden tools are called by the harness (observation, clearance) but not
	// offered to the model.
	Hidden bool `json:"hidden"`
	// Segmented tools may be judged "process" (continue with another segment)
	// up to MaxSegments times.
	Segmented   bool `json:"segmented"`
	MaxSegments int  `json:"max_segments"`
	// Effects are the tool's changes to the Scene Graph, applied once when
	// the evaluator confirms a call with a success verdict (see Effect).
	Effects []Effect `json:"effects,omitempty"`
}

// Verify is a contract's verifier tool and the arguments it is called with:
// each value is an expr over the call (args, before, after, result, limits).
type Verify struct {
	Tool string            `json:"tool"`
	Args map[string]string `json:"args,omitempty"`
}

// Hooks are the pre- and post-execution chains, run in the order given.
type Hooks struct {
	Pre  []PreHook  `json:"pre,omitempty"`
	Post []PostHook `json:"post,omitempty"`
}

// PreHook preflights a call. When selects it (expr over CallEnv); Action
// (a registered component) says what it does, and Config holds the action's
// own fields, decoded into its registered config type. A rule that errors at
// run time fails closed (blocks).
type PreHook struct {
	Name   string `json:"name"`
	When   string `json:"when"`   // bool expr over CallEnv; default "true"
	Action string `json:"action"` // allow | block | rewrite | clamp | confirm
	// Rule is a bool expr over CallEnv: the action applies only when it
	// holds (block blocks, allow ends the chain allowing the call); default
	// "true".
	Rule   string `json:"rule"`
	Reason string `json:"reason,omitempty"`

	// Config is the action's own section as its registered config type; nil
	// for an action that registers none. An action whose fields are
	// expressions implements HookExprs, so they are compiled with the rest.
	Config any `json:"-"`
}

// PostHook runs after a completed call.
type PostHook struct {
	Name   string `json:"name"`
	When   string `json:"when"`   // bool expr over CallEnv (+ result); default "true"
	Action string `json:"action"` // evaluate | note

	// Config is the action's own section as its registered config type; nil
	// for an action that registers none.
	Config any `json:"-"`
}

// ContextConfig configures the context store.
type ContextConfig struct {
	Compaction Compaction `json:"compaction"`
}

// Compaction holds the seed's budget fields, an optional model and the
// low-water mark.
type Compaction struct {
	Enabled            bool   `json:"enabled"`
	ContextWindow      int    `json:"context_window"`
	ReserveTokens      int    `json:"reserve_tokens"`
	KeepRecentTurns    int    `json:"keep_recent_turns"`
	KeepRecentTokens   int    `json:"keep_recent_tokens"`
	ToolResultMaxChars int    `json:"tool_result_max_chars"`
	ReasoningMaxChars  int    `json:"reasoning_max_chars"`
	MaxInputChars      int    `json:"max_input_chars"`
	MaxSummaryRounds   int    `json:"max_summary_rounds"`
	CompactionModel    *Model `json:"compaction_model,omitempty"`

	// Target is the low-water mark: a compaction summarises until the
	// request is about Target times the budget (context_window -
	// reserve_tokens), so the next one is many turns away.
	Target float64 `json:"target"`
}

// Memory configures MEMORY.md, tool_experience/ and consolidation.
type Memory struct {
	Dir string `json:"dir"`
	// MaxEntries and MaxFileBytes bound each memory file; past either, its
	// oldest, least confident entries are merged at task end.
	MaxEntries   int `json:"max_entries"`
	MaxFileBytes int `json:"max_file_bytes"`
	// ToolExperienceChars bounds the experience summary appended to a
	// tool's description at task start.
	ToolExperienceChars int `json:"tool_experience_chars"`
	// MemoryChars bounds the MEMORY.md summary in Resident context.
	MemoryChars   int           `json:"memory_chars"`
	Consolidation Consolidation `json:"consolidation"`
}

// Consolidation is the task-end call that writes durable memory.
type Consolidation struct {
	Enabled   bool    `json:"enabled"`
	Threshold float64 `json:"threshold"`
	Model     *Model  `json:"model,omitempty"`
}

// Skills lists directories holding skill folders (each with a SKILL.md).
type Skills struct {
	Dirs []string `json:"dirs,omitempty"`
}

// Safety bounds what the loop may do.
type Safety struct {
	// ClearanceTool is read fresh before any pre-hook that reads `clearance`;
	// with none configured such hooks fail closed.
	ClearanceTool string `json:"clearance_tool,omitempty"`
	// Readings are read fresh before any pre-hook that reads `readings`;
	// nil: such hooks fail closed.
	Readings      *SafetyReadings `json:"readings,omitempty"`
	FailureBudget FailureBudget   `json:"failure_budget"`
	MaxTurns      int             `json:"max_turns"`
	LoopDetection LoopDetection   `json:"loop_detection"`
	// Uncertainty scopes the "robot state uncertain" block and the motion
	// lock: "body" (every physical tool of every toolset) or "toolset".
	Uncertainty string `json:"uncertainty"`
}

// SafetyReadings binds the named safety readings to the tool that returns
// them, with each reading's type (bool, number, string or any).
type SafetyReadings struct {
	Tool   string            `json:"tool"`
	Values map[string]string `json:"values"`
}

// FailureBudget ends a task after too many failed calls. Consecutive and
// Total count calls that ran (or were refused by a hook) and failed; Format
// counts wire-format mistakes (an unknown tool, arguments that are not a
// JSON object or fail the tool's inputSchema), apart.
type FailureBudget struct {
	Consecutive int `json:"consecutive"`
	Total       int `json:"total"`
	Format      int `json:"format"`
}

// LoopDetection ends a task when the same call (tool and arguments) repeats
// without progress: failing the same way, or succeeding with no change in
// the observation.
type LoopDetection struct {
	Enabled bool `json:"enabled"`
	Repeats int  `json:"repeats"`
}

// User configures the channel of query_user and notify_user. Its channel
// (a registered component) decides what else it has (Config).
type User struct {
	Channel string `json:"channel"` // terminal | script | none
	// Timeout bounds how long query_user waits; zero waits until cancelled.
	Timeout Duration `json:"timeout"`

	// Config is the channel's own section as its registered config type;
	// nil for a channel that registers none.
	Config any `json:"-"`
}

// Loop declares the turn pipeline.
type Loop struct {
	Stages []string `json:"stages"`
}

// SceneGraph configures the harness-owned world state and its Brief.
type SceneGraph struct {
	Enabled bool `json:"enabled"`
	// MaxBriefObjects is how many of the Brief's refs get a detailed line.
	MaxBriefObjects int `json:"max_brief_objects"`
	// MaxBriefRefs is how many refs the Brief lists at most; the rest are
	// counted and left to scene_lookup.
	MaxBriefRefs int `json:"max_brief_refs"`
	// StaleAfterTurns marks entries not re-observed for this many turns stale.
	StaleAfterTurns int `json:"stale_after_turns"`
	// Frame is the embodiment frame positions are given in (default "map").
	Frame string `json:"frame"`
}

// RunLog configures the JSONL run log.
type RunLog struct {
	Enabled bool   `json:"enabled"`
	Dir     string `json:"dir"`
	// Redact lists regular expressions of secrets no event sink ever sees
	// (run log, live trace, stream consumers); none may match the empty string.
	Redact []string `json:"redact,omitempty"`
	// SecretEnv names environment variables whose values are secrets: like
	// every api_key_env, their values are redacted before any event sink.
	SecretEnv []string `json:"secret_env,omitempty"`
	// Required stops a task whose run log cannot be written (disk full, a
	// removed directory) instead of carrying on with an incomplete log.
	Required bool `json:"required"`
}
