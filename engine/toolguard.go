package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/anyjson"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// guarded wraps a tool with the guarantees every tool of every kind gets:
// its arguments are checked against the inputSchema before anything runs,
// the timeout (the contract's, else the toolset's) is applied, a panic
// becomes a failure envelope (the one recovery on a call's path) and the
// result is capped.
type guarded struct {
	inner   Tool
	def     model.ToolDef
	schema  *jsonschema.Schema
	props   []string
	timeout time.Duration
	// maxResult bounds what a call returns (capResult).
	maxResult int
	// inProcess: the tool takes a CallHandle (InProcessTool).
	inProcess bool
}

// GuardTool wraps t with the tool guarantees; GuardToolset does it for
// every tool of a toolset. The tool's inputSchema is compiled once here; a
// schema that does not compile is an error naming the tool (wrapping
// ErrToolUnavailable when it refers outside itself, or is past
// MaxSchemaDepth or MaxSchemaBytes). toolsetTimeout applies
// unless the contract gives one or the tool is SelfTimed; maxResultBytes
// is the toolset's max_result_bytes, whose one default is the schema's.
func GuardTool(t Tool, contract schema.ToolContract, toolsetTimeout time.Duration, maxResultBytes int) (Tool, error) {
	if _, ok := t.(*guarded); ok {
		return t, nil // never twice
	}
	def := t.Def()
	if maxResultBytes <= 0 {
		return nil, fmt.Errorf("tool %s: max_result_bytes is %d: it must be positive (schema.Load fills the schema's default)", def.Name, maxResultBytes)
	}
	g := &guarded{inner: t, def: def, timeout: toolsetTimeout, maxResult: maxResultBytes}
	_, g.inProcess = t.(InProcessTool)
	if st, ok := t.(SelfTimed); ok && st.SelfTimed() {
		g.timeout = 0
	}
	if contract.Timeout > 0 {
		g.timeout = contract.Timeout.D()
	}
	if len(bytes.TrimSpace(def.InputSchema)) > 0 {
		sch, props, err := compileSchema(def.Name, def.InputSchema)
		if err != nil {
			return nil, err
		}
		g.schema, g.props = sch, props
	}
	return g, nil
}

func (g *guarded) Def() model.ToolDef { return g.def }

// Call validates, then runs the tool; a tool not known to honour its context
// runs in its own goroutine so that it still returns at the timeout. An
// in-process tool runs without a handle (see InProcessTool).
func (g *guarded) Call(ctx context.Context, args json.RawMessage) runlog.Envelope {
	return g.CallWith(ctx, nil, args)
}

// CallWith is Call with the call's handle: the guard passes it on to an
// in-process tool and drops it for any other, so every guarded tool is an
// InProcessTool the engine may hand a handle.
func (g *guarded) CallWith(ctx context.Context, h *CallHandle, args json.RawMessage) runlog.Envelope {
	start := time.Now()
	args, failure := g.check(args)
	return g.run(ctx, start, h, args, failure)
}

// callChecked is CallWith for arguments the engine already checked
// against the inputSchema (see Turn.chain): they are not parsed again.
func (g *guarded) callChecked(ctx context.Context, h *CallHandle, args json.RawMessage) runlog.Envelope {
	return g.run(ctx, time.Now(), h, args, "")
}

// run runs the tool on checked arguments, or answers the check's failure.
func (g *guarded) run(ctx context.Context, start time.Time, h *CallHandle, args json.RawMessage, failure string) runlog.Envelope {
	if failure != "" {
		env := runlog.Failure(failure)
		env.Duration = time.Since(start)
		return env
	}
	if g.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, g.timeout)
		defer cancel()
	}
	var env runlog.Envelope
	if _, ok := g.inner.(ContextBound); ok {
		env = g.inline(ctx, h, args)
	} else {
		done := make(chan runlog.Envelope, 1)
		go func() { done <- g.inline(ctx, h, args) }()
		select {
		case env = <-done:
		case <-ctx.Done():
			env = runlog.Failure(g.contextReason(ctx))
		}
	}
	if !env.Success && ctx.Err() != nil {
		// The timeout or cancellation is the cause; the tool's own words follow.
		switch why := g.contextReason(ctx); {
		case env.Reason == "":
			env.Reason = why
		case !strings.HasPrefix(env.Reason, why):
			env.Reason = withCause(why, g.def.Name, env.Reason)
		}
	}
	CapResult(&env, g.def.Name, g.maxResult)
	env.Duration = time.Since(start)
	return env
}

// withCause puts the tool's own words after the guard's, without saying
// twice that it timed out or was cancelled.
func withCause(why, name, own string) string {
	for _, said := range []string{name + " timed out", name + " was cancelled"} {
		own = strings.TrimPrefix(own, said)
	}
	if own = strings.TrimLeft(own, ";:, "); own == "" {
		return why
	}
	return why + " (" + own + ")"
}

// inline runs the tool, turning a panic into a failure envelope.
func (g *guarded) inline(ctx context.Context, h *CallHandle, args json.RawMessage) (env runlog.Envelope) {
	defer func() {
		if r := recover(); r != nil {
			env = runlog.Failure(fmt.Sprintf("%s failed with an internal error (%v); this is a bug in the tool, not in your arguments: try another approach", g.def.Name, r))
		}
	}()
	if t, ok := g.inner.(InProcessTool); ok && h != nil {
		return t.CallWith(ctx, h, args)
	}
	return g.inner.Call(ctx, args)
}

func (g *guarded) contextReason(ctx context.Context) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Sprintf("%s timed out after %s; its effect is unknown: observe before retrying", g.def.Name, g.timeout)
	}
	return fmt.Sprintf("%s was cancelled before it finished; its effect is unknown", g.def.Name)
}

// check parses and validates the arguments; it returns the normalised JSON or a
// reason the model can act on.
func (g *guarded) check(args json.RawMessage) (json.RawMessage, string) {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		trimmed = []byte("{}")
	}
	v, err := decodeArgs(args, trimmed)
	if err != nil {
		return nil, fmt.Sprintf("the arguments of %s are not valid JSON (%v): send one JSON object", g.def.Name, err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Sprintf("the arguments of %s must be a JSON object, got %s", g.def.Name, anyjson.Kind(v))
	}
	if failure := g.validate(m); failure != "" {
		return nil, failure
	}
	return trimmed, ""
}

// validate checks decoded arguments against the inputSchema; it returns a
// reason the model can act on, or "".
func (g *guarded) validate(v map[string]any) string {
	if g.schema == nil {
		return ""
	}
	if err := g.schema.Validate(v); err != nil {
		var verr *jsonschema.ValidationError
		if errors.As(err, &verr) {
			return fmt.Sprintf("invalid arguments for %s: %s", g.def.Name, describe(verr, g.props))
		}
		return fmt.Sprintf("invalid arguments for %s: %v", g.def.Name, err)
	}
	return ""
}
