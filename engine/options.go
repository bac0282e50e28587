package engine

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"time"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/schema"
)

// ErrBusy is returned when a task is started while another runs on the same
// Harness: one Harness owns one session and runs one task at a time.
var ErrBusy = errors.New("harness busy: a task is already running on this session")

// ErrClosed is returned when a task is started on a closed Harness.
var ErrClosed = errors.New("harness closed")

// Options are the registries and collaborators a Harness is built from. The
// caller (the CLI, a test) supplies every one; the engine never imports an
// implementation package.
type Options struct {
	// Components holds every component the spec may name (stages, toolset
	// kinds, model providers, user channels, hook actions).
	Components *Components
	Policy     PolicyFactory
	// User overrides the spec's user channel (tests, an embedding app);
	// nil builds user.channel from Components.
	User UserChannel
	// Skills is the session's Skill Catalog. nil loads the spec's
	// skills.dirs with LoadSkills; a spec that names skill folders in a
	// session that can load none is an error, not a session without them.
	Skills SkillCatalog
	// LoadSkills loads the Skill Catalog from the spec's skills.dirs
	// (resolved against the spec's directory) when Skills is nil.
	LoadSkills SkillLoader
	// RenderProfile renders the Embodiment Profile for Resident context; nil
	// falls back to its JSON form.
	RenderProfile func(schema.Embodiment) string
	// Clock stamps events and names run directories; nil means time.Now.
	Clock func() time.Time
	// RunLogDir overrides spec.RunLog.Dir (and enables the run log); it is
	// the caller's path, relative to the working directory, not the spec's.
	RunLogDir string
	// Sinks open further event sinks per task (an SSE stream, a report).
	// Like the run log, they receive every event after redaction.
	Sinks  []SinkFactory
	Logger *slog.Logger
	// SecretEnv names further environment variables whose values are
	// secrets, beside those the spec names (see NewRedactor): a host's own
	// credentials, such as thea serve's --token-env.
	SecretEnv []string
	// Owned are objects the session owns from New on (the seed's
	// owned_resources): a simulator the toolsets drive, a log file, a
	// process's connection. Close releases them after the toolsets, in
	// reverse order, each once; New releases them too when it fails, since
	// the caller then holds no Harness to close.
	Owned []io.Closer
	// Blind withholds observations from the acting model (thea eval
	// --blind, an ablation; see blind.go). Hooks, the evaluator and the
	// run log still get every observation.
	Blind bool
	// Decider, when set, answers the session's decide requests in place of
	// the spec's model: an MCP client acting through thea mcp. The spec's
	// model still serves the evaluator, compaction and consolidation, so a
	// client never judges its own calls.
	Decider model.Model
	// WrapUser, when set, wraps the session's user channel (the spec's, or
	// User): an MCP face asks its client to confirm, and the wrapped
	// channel otherwise.
	WrapUser func(UserChannel) UserChannel
}

// SkillLoader loads a Skill Catalog from skill folders (absolute paths).
type SkillLoader func(ctx context.Context, dirs []string) (SkillCatalog, error)

// RunOption configures one task of RunStream.
type RunOption func(*runConfig)

type runConfig struct {
	pollReplan   func() (string, bool)
	shouldCancel func() bool
	// preview: the task only renders its first request (no run log).
	preview bool
	// resume: the run directory of the unfinished task to continue.
	resume string
}

// WithPollReplan is polled before every model decision and before every tool
// execution; a revision (text, true) replaces the task's goal inside the
// active task.
func WithPollReplan(f func() (string, bool)) RunOption {
	return func(c *runConfig) { c.pollReplan = f }
}

// WithShouldCancel is checked before every observation, every model decision
// and every tool execution; true ends the task with DoneCancelled.
func WithShouldCancel(f func() bool) RunOption {
	return func(c *runConfig) { c.shouldCancel = f }
}
