package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/thea-harness/thea/engine/lifetimes"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/redact"
	"github.com/thea-harness/thea/engine/scenegraph"
	"github.com/thea-harness/thea/schema"
)

// Harness is one session: the tools, clients, stages and context of one
// robot, running one task at a time.
type Harness struct {
	spec  *schema.Spec
	opts  Options
	log   *slog.Logger
	clock func() time.Time

	model     model.Model
	user      UserChannel
	compactor lifetimes.Compactor
	// calib corrects the character-based estimate to the acting model's own
	// token count, from every response's reported input tokens; it lives as
	// long as the session.
	calib    model.Calibration
	policy   Policy
	toolsets []*Guarded
	tools    *toolRegistry
	stages   []Stage

	memoryDir string
	runLogDir string                // empty: no run log
	redactor  *redact.Redactor      // every exit passes it: events, model requests, memory (redaction.go)
	decideRed lifetimes.RequestMemo // redacts decide requests, walking only what changed (lifetimes/redactmemo.go)
	profile   string
	catalog   string

	consolidator model.Model // nil: memory consolidation off

	busy      atomic.Bool
	closed    atomic.Bool
	closeOnce sync.Once
	closeErr  error

	// Session state, touched only by the task running (busy) or by
	// ResetSession when idle.
	store  lifetimes.Store
	scene  *scenegraph.Graph
	taskN  int
	groupN int

	// hostMu guards what tools may reach from their own goroutines.
	hostMu    sync.Mutex
	task      *task
	lastNotes *TaskNotes
	// between holds events queued while no task runs (see queue).
	between betweenTasks
	// pause is the operator's hold (pause.go).
	pause pauseGate
}

// New builds a session from a validated spec: model clients, toolsets, the
// flat tool registry, the policy and the stage pipeline, all by name through
// the registries in opts. On error everything already built is closed.
func New(ctx context.Context, spec *schema.Spec, opts Options) (*Harness, error) {
	switch {
	case spec == nil:
		return nil, errors.New("engine.New: nil spec")
	case opts.Components == nil:
		return nil, errors.New("engine.New: Options.Components is nil (components.Session sets it)")
	case opts.Policy == nil:
		return nil, errors.New("engine.New: Options.Policy is nil (components.Session sets it)")
	}
	// The session's own copy: the caller's spec, changed after New, changes
	// nothing that runs. The compiled rules are read-only once compiled.
	live := spec.Clone()
	live.Rules = spec.Rules
	h := &Harness{spec: live, opts: opts, log: opts.Logger, clock: opts.Clock}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	if h.clock == nil {
		h.clock = time.Now
	}
	if err := h.build(ctx); err != nil {
		// Whatever failed may quote a back-end (its stderr) or a provider.
		return nil, RedactError(h.redactor, errors.Join(err, h.Close()))
	}
	return h, nil
}

func (h *Harness) build(ctx context.Context) error {
	spec := h.spec
	if err := checkBounds(spec); err != nil {
		return err
	}
	// First: every model request, event and memory write passes it.
	if err := h.buildRedactor(); err != nil {
		return err
	}
	var err error
	if h.model, err = h.newModel(spec.Model); err != nil {
		return fmt.Errorf("model: %w", err)
	}
	h.model = h.decidedBy(h.model)
	if err := h.buildCompactor(); err != nil {
		return err
	}
	evaluator := h.model
	if spec.Evaluator.Model != nil {
		if evaluator, err = h.newModel(*spec.Evaluator.Model); err != nil {
			return fmt.Errorf("evaluator.model: %w", err)
		}
	}
	if err := h.buildUser(); err != nil {
		return err
	}
	if err := h.buildSkills(ctx); err != nil {
		return err
	}
	if err := h.buildTools(ctx); err != nil {
		return err
	}
	if err := h.buildStages(); err != nil {
		return err
	}
	if h.policy, err = h.opts.Policy(PolicyEnv{Spec: spec, Components: h.opts.Components, Tools: reader{h}, Evaluator: evaluator, User: h.user}); err != nil {
		return fmt.Errorf("policy: %w", err)
	}
	h.scene = scenegraph.New(spec.SceneGraph.StaleAfterTurns, scenegraph.WithFrame(spec.SceneFrame()))
	if spec.Memory.Dir != "" {
		h.memoryDir = h.resolve(spec.Memory.Dir)
	}
	if err := h.buildConsolidator(); err != nil {
		return err
	}
	h.buildRunLog()
	h.profile = h.renderProfile()
	return nil
}

func (h *Harness) buildCompactor() error {
	c := h.spec.Context.Compaction
	h.compactor = lifetimes.NewCompactor(c, h.model, h.spec.Model.Label())
	// The budget holds with compaction off too (a request over it fails
	// the turn); a spec built in Go without a window has none to keep.
	if (c.Enabled || c.ContextWindow > 0) && c.ContextWindow <= c.ReserveTokens {
		return fmt.Errorf("context.compaction: context_window (%d) must exceed reserve_tokens (%d)", c.ContextWindow, c.ReserveTokens)
	}
	if !c.Enabled {
		return nil
	}
	switch {
	case c.Target <= 0 || c.Target >= 1:
		return fmt.Errorf("context.compaction.target: must be a fraction of the budget between 0 and 1 (exclusive), got %v", c.Target)
	case c.MaxInputChars <= 0:
		return fmt.Errorf("context.compaction.max_input_chars: must be positive, got %d", c.MaxInputChars)
	case c.MaxSummaryRounds <= 0:
		return fmt.Errorf("context.compaction.max_summary_rounds: must be positive, got %d", c.MaxSummaryRounds)
	case c.KeepRecentTurns < 0 || c.KeepRecentTokens < 0:
		return errors.New("context.compaction: keep_recent_turns and keep_recent_tokens must not be negative")
	}
	if c.CompactionModel != nil {
		m, err := h.newModel(*c.CompactionModel)
		if err != nil {
			return fmt.Errorf("context.compaction.compaction_model: %w", err)
		}
		h.compactor.SetModel(m, c.CompactionModel.Label())
	}
	return nil
}

// buildStages builds the pipeline: the context stages in the order of
// loop.stages, then the fixed turn. The order and duplicates were checked
// by schema.Load against the same components; they are checked again here
// for a spec built in Go, which may still list the fixed turn's names
// (ignored, as Load drops them).
func (h *Harness) buildStages() error {
	seen := map[string]int{}
	for i, name := range h.spec.Loop.Stages {
		if slices.Contains(schema.FixedTurn(), name) {
			continue
		}
		if j, dup := seen[name]; dup {
			return fmt.Errorf("loop.stages[%d]: stage %q listed twice (also at loop.stages[%d])", i, name, j)
		}
		seen[name] = i
		k, err := Get[StageKind](h.opts.Components, schema.KindStage, name)
		if err != nil {
			return fmt.Errorf("loop.stages[%d]: %w", i, err)
		}
		for _, before := range k.After {
			if j := slices.Index(h.spec.Loop.Stages, before); j > i {
				return fmt.Errorf("loop.stages[%d]: stage %q must run after %q (loop.stages[%d])", i, name, before, j)
			}
		}
		st, err := k.New(h.spec)
		if err != nil {
			return fmt.Errorf("loop.stages[%d] %q: %w", i, name, err)
		}
		h.stages = append(h.stages, st)
	}
	h.stages = append(h.stages, fixedTurn()...)
	return nil
}

// buildUser builds the user channel the spec names, unless the caller gave
// one; the spec's user.timeout bounds every question.
func (h *Harness) buildUser() error {
	uc := h.opts.User
	if uc == nil && h.spec.User.Channel != "" { // a spec built in Go may name none
		k, err := Get[UserChannelKind](h.opts.Components, schema.KindUserChannel, h.spec.User.Channel)
		if err != nil {
			return fmt.Errorf("user.channel: %w", err)
		}
		if uc, err = k.New(h.spec.User, h.spec.Dir); err != nil {
			return fmt.Errorf("user.channel %q: %w", h.spec.User.Channel, err)
		}
	}
	if h.opts.WrapUser != nil {
		uc = h.opts.WrapUser(uc)
	}
	h.user = h.withRedaction(withTimeout(uc, h.spec.User.Timeout.D()))
	return nil
}

func (h *Harness) resolve(p string) string { return h.spec.Resolve(p) }

func (h *Harness) renderProfile() string {
	if h.opts.RenderProfile != nil {
		return h.opts.RenderProfile(h.spec.Embodiment)
	}
	b, err := json.MarshalIndent(h.spec.Embodiment, "", "  ")
	if err != nil {
		return "Embodiment Profile unavailable: " + err.Error()
	}
	return "Embodiment Profile:\n" + string(b)
}

// ResetSession clears Accumulated context (and the working Task Notes)
// while keeping clients, tools and the scene graph. It fails with ErrBusy
// while a task runs.
func (h *Harness) ResetSession() error {
	if !h.busy.CompareAndSwap(false, true) {
		return ErrBusy
	}
	defer h.busy.Store(false)
	h.store.ClearAccumulated()
	h.store.SetObservation("", nil)
	h.store.SetBrief("")
	h.store.SetNotes("")
	return nil
}

// Close releases every owned resource: each toolset (MCP subprocesses
// included), then Options.Owned, each closed once, the last built first. It
// is idempotent and returns the first call's errors on every call.
func (h *Harness) Close() error {
	h.closeOnce.Do(func() {
		h.closed.Store(true)
		var errs []error
		for i := len(h.toolsets) - 1; i >= 0; i-- {
			if err := closeToolset(h.toolsets[i]); err != nil {
				errs = append(errs, fmt.Errorf("close toolset %s: %w", h.toolsets[i].Name(), err))
			}
		}
		errs = append(errs, closeOwned(h.opts.Owned)...)
		h.closeErr = errors.Join(errs...)
	})
	return h.closeErr
}

// closeToolset closes one toolset; a panic is its error, so the toolsets
// after it (MCP subprocesses) are still released.
func closeToolset(ts Toolset) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panicked: %v", r)
		}
	}()
	return ts.Close()
}

// Spec is a copy of the plan the session was built from, to read:
// changing it changes nothing the session does (see schema.Spec.Clone),
// and it holds no compiled rules (the policy's).
func (h *Harness) Spec() *schema.Spec { return h.spec.Clone() }

// Tools lists the registered tools' names, sorted (hidden ones included).
func (h *Harness) Tools() []string { return append([]string(nil), h.tools.names...) }

// Redactor is the session's redactor (declared secrets, redact patterns),
// for what a host shows outside the event bus, such as a server's views.
func (h *Harness) Redactor() *redact.Redactor { return h.redactor }
