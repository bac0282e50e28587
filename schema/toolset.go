package schema

// Toolset is one source of tools. Its kind (a registered component)
// decides what else it has: Config holds the kind's own section, decoded into
// the kind's registered config type (see Descriptor.Config) and checked
// against the kind's CUE definition, so each kind validates exactly its own
// fields.
type Toolset struct {
	Kind string `json:"kind"`
	// Tools limits which tools of the toolset are registered; empty means all.
	Tools []string `json:"tools,omitempty"`
	// Timeout is the default per-call timeout of the toolset's tools.
	Timeout Duration `json:"timeout"`
	// MaxResultBytes caps one tool result (value, reason and images) before
	// it is stored; what is cut is noted in the result.
	MaxResultBytes int `json:"max_result_bytes"`

	// The body layer's fields (#Transport), for the kinds that embed them.
	StartTimeout Duration `json:"start_timeout"`
	Restart      Restart  `json:"restart"`
	// OnUncertain says what happens after a timeout or crash during a physical
	// call: "refuse_physical" (until a fresh observation or the operator clears
	// it) or "continue".
	OnUncertain string `json:"on_uncertain"`
	// StopGrace is how long an interrupted physical call may take to answer
	// (after the kind's stop, if any) before the back-end is killed and
	// restarted.
	StopGrace Duration `json:"stop_grace"`

	// Config is the kind's own section as its registered config type (a
	// value, not a pointer); nil for a kind that registers none.
	Config any `json:"-"`
}

// Restart bounds how a crashed back-end is restarted.
type Restart struct {
	MaxRestarts int      `json:"max_restarts"`
	Backoff     Duration `json:"backoff"`
}

// Launcher is a kind's config that starts its back-end as a process: its
// command line, which episodes seed and run logs record.
type Launcher interface {
	// CommandLine is the back-end's command line; empty when it starts
	// none (a server reached by URL).
	CommandLine() []string
	// WithCommandLine returns a copy of the config with argv as its command
	// line.
	WithCommandLine(argv []string) any
}

// CommandLine is the command line the toolset starts its back-end with, or
// nil when its kind starts no process.
func (t Toolset) CommandLine() []string {
	if l, ok := t.Config.(Launcher); ok {
		return l.CommandLine()
	}
	return nil
}

// WithCommandLine returns a copy of t whose back-end starts with argv; t
// unchanged when its kind starts no process.
func (t Toolset) WithCommandLine(argv []string) Toolset {
	if l, ok := t.Config.(Launcher); ok {
		t.Config = l.WithCommandLine(argv)
	}
	return t
}
