package toolsets

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// builtinTool is one in-process tool: a definition and a typed handler that
// reaches the session only through its call's handle.
type builtinTool struct {
	def model.ToolDef
	run func(ctx context.Context, h *engine.CallHandle, args json.RawMessage) runlog.Envelope
	// selfTimed: the toolset's timeout does not apply (see SelfTimed).
	selfTimed bool
}

func (b *builtinTool) Def() model.ToolDef { return b.def }

// SelfTimed is true for query_user: a person answers on their own time,
// and the session's user channel applies user.timeout.
func (b *builtinTool) SelfTimed() bool { return b.selfTimed }

// ReturnsOnCancel: every builtin tool either returns at once or blocks only
// on the user channel, which honours its context; the guard runs it inline.
func (b *builtinTool) ReturnsOnCancel() {}

var _ engine.InProcessTool = (*builtinTool)(nil)

// CallWith runs the tool with its call's handle.
func (b *builtinTool) CallWith(ctx context.Context, h *engine.CallHandle, args json.RawMessage) runlog.Envelope {
	return b.run(ctx, h, args)
}

// Call is a call without a session (the engine always passes a handle).
func (b *builtinTool) Call(context.Context, json.RawMessage) runlog.Envelope {
	return runlog.Failure(b.def.Name + " runs only inside a session")
}

// typed decodes the (already validated) arguments into A before calling f.
func typed[A any](name string, f func(context.Context, *engine.CallHandle, A) runlog.Envelope) func(context.Context, *engine.CallHandle, json.RawMessage) runlog.Envelope {
	return func(ctx context.Context, h *engine.CallHandle, raw json.RawMessage) runlog.Envelope {
		var a A
		if err := json.Unmarshal(raw, &a); err != nil {
			return runlog.Failure(fmt.Sprintf("invalid arguments for %s: %v", name, err))
		}
		return f(ctx, h, a)
	}
}

type staticToolset struct {
	name  string
	tools []engine.Tool
}

func (s *staticToolset) Name() string                                 { return s.name }
func (s *staticToolset) Tools(context.Context) ([]engine.Tool, error) { return s.tools, nil }
func (s *staticToolset) Close() error                                 { return nil }

// BuiltinKind is the in-process toolset kind: query_user, notify_user,
// load_skill and scene_lookup.
func BuiltinKind() engine.ToolsetKind {
	return engine.ToolsetKind{
		Name:     "builtin",
		Doc:      "in-process tools: " + strings.Join(BuiltinToolNames(), ", "),
		Validate: validateBuiltin,
		Provides: func(_ string, ts schema.Toolset) ([]string, bool) {
			if len(ts.Tools) > 0 {
				return ts.Tools, false
			}
			return BuiltinToolNames(), false
		},
		Args: builtinArgs,
		// The tools run in the harness and move nothing.
		InProcess: startBuiltin,
	}
}

// BuiltinToolNames lists the tools a builtin toolset provides.
func BuiltinToolNames() []string {
	all := builtinTools()
	names := make([]string, len(all))
	for i, t := range all {
		names[i] = t.def.Name
	}
	return names
}

// builtinArgs lists the arguments a builtin tool takes, from its input
// schema: validate checks what a contract's rules and effects read of them.
func builtinArgs(_ schema.Toolset, tool string) ([]string, bool) {
	for _, t := range builtinTools() {
		if t.def.Name != tool {
			continue
		}
		var in struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if json.Unmarshal(t.def.InputSchema, &in) != nil {
			return nil, false
		}
		args := make([]string, 0, len(in.Properties))
		for k := range in.Properties {
			args = append(args, k)
		}
		slices.Sort(args)
		return args, true
	}
	return nil, false
}

// validateBuiltin checks the tools list; the builtin kind has no fields of
// its own, so its definition refuses command, url or stop.
func validateBuiltin(c *schema.Check) { schema.Typed(checkBuiltin)(c) }

func checkBuiltin(c *schema.Check, ts schema.Toolset, _ struct{}) {
	have := BuiltinToolNames()
	for i, t := range ts.Tools {
		if !slices.Contains(have, t) {
			c.Errorf(fmt.Sprintf(".tools[%d]", i), "builtin toolsets provide no tool %q (they provide %s)", t, strings.Join(have, ", "))
		}
	}
}

// startBuiltin offers the builtin tools; the engine keeps the ones the
// toolset's tools list names and guards them, and hands each call its
// handle.
func startBuiltin(_ context.Context, cfg engine.ToolsetConfig) (engine.Toolset, error) {
	ts := &staticToolset{name: cfg.Name}
	for _, t := range builtinTools() {
		ts.tools = append(ts.tools, t)
	}
	return ts, nil
}
