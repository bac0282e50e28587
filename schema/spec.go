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
}

// Model selects a model provider and its settings. Secrets never live in the
// spec: APIKeyEnv names the environment variable that holds the key.
type Model struct {
	Provider    string   `json:"provider"` // openai | anthropic | ollama | google | script | replay | human
	Name        string   `json:"name,omitempty"`
	BaseURL     string   `json:"base_url,omitempty"`
	APIKeyEnv   string   `json:"api_key_env,omitempty"`
	Temperature *float64 `json:"temperature,omitempty"` // nil: none set, the model family's default applies
	MaxTokens   int      `json:"max_tokens"`
	Timeout     Duration `json:"timeout"`
	Retries     int      `json:"retries"`
	// Script is the file of scripted model turns (provider "script"), or the run
	// log to replay (provider "replay"); relative to Spec.Dir.
	Script string `json:"script,omitempty"`
	// Wire overrides how requests are shaped where the provider's table of
	// model families does not know the model.
	Wire ModelWire `json:"wire,omitzero"`
}

// ModelWire is the spec's override of a model's request shape: for a model
// the family table cannot recognise by name (an Azure deployment, a router's
// alias). Empty fields leave the family's rule.
type ModelWire struct {
	// Family treats the model as one of the provider's families
	// ("openai_reasoning", "gemini_3", "standard").
	Family string `json:"family,omitempty"`
	// TokenLimitField is the field max_tokens travels in: "max_tokens" or
	// "max_completion_tokens".
	TokenLimitField string `json:"token_limit_field,omitempty"`
	// Temperature is "send" (the spec's, or the family's default) or "omit"
	// (none: the server's default).
	Temperature string `json:"temperature,omitempty"`
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

// PreHook preflights a call. When selects it (expr over CallEnv); Action says
// what it does. A rule that errors at run time fails closed (blocks).
type PreHook struct {
	Name   string `json:"name"`
	When   string `json:"when"`   // bool expr over CallEnv; default "true"
	Action string `json:"action"` // allow | block | rewrite | clamp | confirm
	// Rule is a bool expr over CallEnv: block blocks when it holds, allow ends
	// the chain allowing the call when it holds; default "true".
	Rule   string `json:"rule"`
	Reason string `json:"reason,omitempty"`
	// Rewrite maps an argument name to an expr giving its new value.
	Rewrite map[string]string `json:"rewrite,omitempty"`
	Clamp   *Clamp            `json:"clamp,omitempty"`
	// Prompt is the question a confirm hook asks the user.
	Prompt string `json:"prompt,omitempty"`
}

// Clamp limits one numeric argument to bounds given as expr over CallEnv.
type Clamp struct {
	Arg string `json:"arg"`
	Min string `json:"min,omitempty"`
	Max string `json:"max,omitempty"`
}

// PostHook runs after a completed call.
type PostHook struct {
	Name   string `json:"name"`
	When   string `json:"when"`   // bool expr over CallEnv (+ result); default "true"
	Action string `json:"action"` // evaluate | note
	// Note is the text a note hook adds to the Task Notes timeline.
	Note string `json:"note,omitempty"`
}

// ContextConfig configures the context store.
type ContextConfig struct {
	Compaction Compaction `json:"compaction"`
}

// Compaction holds exactly the seed's budget fields and an optional model.
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

// FailureBudget ends a task after too many failed calls.
type FailureBudget struct {
	Consecutive int `json:"consecutive"`
	Total       int `json:"total"`
}

// LoopDetection ends a task when the same call (tool and arguments) repeats.
type LoopDetection struct {
	Enabled bool `json:"enabled"`
	Repeats int  `json:"repeats"`
}

// User configures the channel of query_user and notify_user.
type User struct {
	Channel string `json:"channel"` // terminal | script | none
	// Script is a file of answers (channel "script"), relative to Spec.Dir.
	Script string `json:"script,omitempty"`
	// Timeout bounds how long query_user waits; zero waits until cancelled.
	Timeout Duration `json:"timeout"`
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
