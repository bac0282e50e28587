package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/callgate"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// toolRegistry is the session's flat tool registry: every tool of every
// toolset under one name, with its contract.
type toolRegistry struct {
	byName map[string]*RegisteredTool
	names  []string // sorted
	base   map[string]string
	index  schema.ToolIndex
}

// buildTools starts every toolset of the spec through its kind among
// Options.Components and flattens their tools, each with its effective
// contract (ContractOf): the one hooks, effects, the operator view and the
// call path read. A read (ReadRefs) naming a physical tool is an error. Tool references (contract keys, the
// observation, clearance and evidence tools) resolve through the same
// schema.ToolIndex as thea validate, so what validates starts.
func (h *Harness) buildTools(ctx context.Context) error {
	reg := &toolRegistry{byName: map[string]*RegisteredTool{}, base: map[string]string{}}
	provided := map[string][]string{}
	owners := ToolOwners{}
	for _, setName := range slices.Sorted(maps.Keys(h.spec.Toolsets)) {
		cfg := h.spec.Toolsets[setName]
		kind, err := Get[ToolsetKind](h.opts.Components, schema.KindToolset, cfg.Kind)
		if err != nil {
			return fmt.Errorf("toolsets.%s: %w", setName, err)
		}
		set, err := StartToolset(ctx, kind, ToolsetConfig{
			Name: setName, Section: cfg, Dir: h.spec.Dir, Observation: h.spec.Observation.Tool, Stream: taskStream{h},
			Body: h.spec.Embodiment, Uncertainty: h.spec.Safety.Uncertainty, Redactor: h.redactor,
			Contract: func(tool string) schema.ToolContract { return h.spec.ContractFor(setName, tool) },
		}, h.opts.Components.body, h.log)
		if err != nil {
			return fmt.Errorf("toolsets.%s: build: %w", setName, err)
		}
		h.toolsets = append(h.toolsets, set)
		tools, _ := set.Tools(ctx)
		if err := listedOffered(setName, cfg.Tools, tools, set.Unavailable()); err != nil {
			return err
		}
		if err := owners.Claim(setName, tools); err != nil {
			return err
		}
		for _, t := range tools {
			def := t.Def()
			contract, declared := ContractOf(t, h.spec.ContractFor(setName, def.Name))
			if path, msg := ContractConflict(h.spec, setName, def.Name, declared); path != "" {
				h.log.Warn(fmt.Sprintf("%s: %s: %s", h.spec.Pos(path), path, msg))
			}
			reg.byName[def.Name] = &RegisteredTool{tool: t, Toolset: setName, Contract: contract, Declared: declared, Def: def}
			reg.base[def.Name] = def.Description
			reg.names = append(reg.names, def.Name)
			provided[setName] = append(provided[setName], def.Name)
		}
	}
	slices.Sort(reg.names)
	offered := slices.DeleteFunc(slices.Clone(reg.names), func(n string) bool { return reg.byName[n].Contract.Hidden })
	if err := model.CheckToolNames(offered); err != nil {
		return err // two tools the model could not tell apart
	}
	reg.index = schema.NewToolIndex(provided)
	for _, r := range h.spec.ToolRefs() {
		if _, _, res := reg.index.Resolve(r.Ref); res != schema.Found {
			return fmt.Errorf("%s: no toolset provides the tool %q (known: %s)", r.Path, r.Ref, strings.Join(reg.names, ", "))
		}
	}
	for _, r := range ReadRefs(h.spec) {
		if rt, ok := reg.lookup(r.Ref); ok {
			if why := CheckRead(r, rt.Contract); why != "" {
				return fmt.Errorf("%s: %s: %s", h.spec.Pos(r.Path), r.Path, why)
			}
		}
	}
	h.tools = reg
	return nil
}

// ToolOwners maps each tool name to the toolset that provides it. The
// session (buildTools) and `thea validate --live` claim every started
// toolset's tools through it, so both refuse the same spec.
type ToolOwners map[string]string

// Claim records the tools of set; a name another toolset already provides
// is an error: one name must reach one tool.
func (o ToolOwners) Claim(set string, tools []Tool) error {
	for _, t := range tools {
		name := t.Def().Name
		if prev, ok := o[name]; ok {
			return fmt.Errorf("tool %q is provided by toolsets %q and %q: tool names must be unique", name, prev, set)
		}
		o[name] = set
	}
	return nil
}

// listedOffered checks that every tool a toolset's tools list names is
// offered: one the toolset had to leave out (an inputSchema it would not
// load) is an error naming why.
func listedOffered(set string, listed []string, tools []Tool, unavailable map[string]string) error {
	for _, n := range listed {
		if !slices.ContainsFunc(tools, func(t Tool) bool { return t.Def().Name == n }) {
			why := ""
			if u, ok := unavailable[n]; ok {
				why = ": " + u
			}
			return fmt.Errorf("toolsets.%s.tools: toolset does not provide %q%s", set, n, why)
		}
	}
	return nil
}

// lookup finds a tool by a spec reference: its name, or toolset.name.
func (r *toolRegistry) lookup(ref string) (*RegisteredTool, bool) {
	if rt, ok := r.byName[ref]; ok {
		return rt, true
	}
	if _, name, res := r.index.Resolve(ref); res == schema.Found {
		rt, ok := r.byName[name]
		return rt, ok
	}
	return nil, false
}

// assembleTools sets each tool's model-visible definition for a task: the
// back-end description, the contract's addendum and the tool-experience
// summary read now from <memory.dir>/tool_experience/<tool>.md. Hidden tools
// are not offered.
func (h *Harness) assembleTools(ctx context.Context) ([]model.ToolDef, error) {
	defs := make([]model.ToolDef, 0, len(h.tools.names))
	for _, name := range h.tools.names {
		rt := h.tools.byName[name]
		desc, err := h.describeTool(ctx, name, rt)
		if err != nil {
			return nil, err
		}
		rt.Def.Description = desc
		if rt.Contract.Hidden {
			continue
		}
		defs = append(defs, model.ToolDef{Name: name, Description: desc, InputSchema: rt.Def.InputSchema})
	}
	return defs, nil
}

// describeTool is a tool's description as the model reads it: the back-end
// description, the contract's addendum and the tool-experience summary
// read now.
func (h *Harness) describeTool(ctx context.Context, name string, rt *RegisteredTool) (string, error) {
	desc := joinNonEmpty(h.tools.base[name], rt.Contract.Description)
	exp, err := experienceSummary(ctx, h.memoryDir, name, h.spec.Memory.ToolExperienceChars)
	if err != nil {
		return "", err
	}
	if exp != "" {
		desc = joinNonEmpty(desc, "Experience from earlier tasks:\n"+exp)
	}
	return desc, nil
}

// Lookup finds a registered tool by name (hidden tools included).
func (h *Harness) Lookup(name string) (*RegisteredTool, bool) { return h.tools.lookup(name) }

// invoke calls a tool. Every registered tool is guarded (StartToolset): a
// panic is already a failure envelope, so the session never crashes on one.
// An in-process tool gets a handle made for the call.
func (h *Harness) invoke(ctx context.Context, rt *RegisteredTool, raw json.RawMessage) runlog.Envelope {
	ctx = callgate.Through(ctx) // the call path's callers have run its hooks
	start := time.Now()
	var env runlog.Envelope
	if g, ok := rt.tool.(*guarded); ok {
		env = g.CallWith(ctx, h.handleFor(g), raw)
	} else {
		env = rt.tool.Call(ctx, raw)
	}
	env.Duration = time.Since(start)
	return env
}

// handleFor is the handle of one call of g: nil unless g is in-process.
func (h *Harness) handleFor(g *guarded) *CallHandle {
	if !g.inProcess {
		return nil
	}
	return h.callHandle()
}

// invokeChecked calls a tool with arguments already checked against its
// inputSchema (the chain checks them before the hooks, and again after a
// hook changed them): the guard does not parse or validate them again.
func (h *Harness) invokeChecked(ctx context.Context, rt *RegisteredTool, raw json.RawMessage) runlog.Envelope {
	g, ok := rt.tool.(*guarded)
	if !ok {
		return h.invoke(ctx, rt, raw)
	}
	start := time.Now()
	env := g.callChecked(callgate.Through(ctx), h.handleFor(g), raw)
	env.Duration = time.Since(start)
	return env
}

// visibleNames lists the tools the model may call, for failure reasons. A
// name the model APIs refuse is listed with the alias such a model knows it
// by (model.WireToolName), so the reason helps whichever model reads it.
func (h *Harness) visibleNames() string {
	var out []string
	for _, n := range h.tools.names {
		if h.tools.byName[n].Contract.Hidden {
			continue
		}
		if w := model.WireToolName(n); w != n {
			n += " (as " + w + ")"
		}
		out = append(out, n)
	}
	return strings.Join(out, ", ")
}
