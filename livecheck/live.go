package livecheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/redact"
	"github.com/thea-harness/thea/policies"
	"github.com/thea-harness/thea/rules"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// Options bound a live check.
type Options struct {
	// Timeout bounds starting each toolset and listing its tools, and each
	// contract call (observation, clearance); zero means 20 seconds.
	Timeout time.Duration
}

// liveTool is one tool a running back-end offers.
type liveTool struct {
	toolset string
	tool    engine.Tool
	props   map[string]bool // nil: the input schema names no properties
	// contract is the tool's effective contract, as a session's; declared
	// is what its transport declares.
	contract schema.ToolContract
	declared engine.Declared
}

// Check starts every toolset of s through the registered toolset kinds and
// returns one diagnostic per problem, at the spec position that caused it.
// Every toolset it started is closed before it returns.
func Check(ctx context.Context, s *schema.Spec, cat *engine.Components, opts Options) []schema.Diagnostic {
	if opts.Timeout <= 0 {
		opts.Timeout = 20 * time.Second
	}
	c := &checker{spec: s, byName: map[string]*liveTool{}}
	// The session's redactor: a back-end that dies at start, or answers
	// with a credential, shows no secret in a diagnostic either.
	red, err := engine.NewRedactor(s, nil, nil)
	if err != nil {
		c.errorf("run_log.redact", "%v", err)
		return c.diags
	}
	c.redactor = red
	defer func() {
		for i := range c.diags {
			c.diags[i].Message = red.String(c.diags[i].Message)
		}
	}()
	provided := map[string][]string{}
	// The session's own check (engine.ToolOwners): a tool two toolsets
	// provide does not start. A tool one back-end lists twice is refused
	// when the toolset starts (engine.GuardToolset), here as in a session.
	owners := engine.ToolOwners{}
	for _, name := range slices.Sorted(maps.Keys(s.Toolsets)) {
		tools, unavailable, closeFn, err := start(ctx, s, cat, name, opts.Timeout, red)
		if closeFn != nil {
			defer closeFn()
		}
		if err != nil {
			c.errorf("toolsets."+name, "%v", err)
			c.down = append(c.down, name)
			continue
		}
		if err := owners.Claim(name, tools); err != nil {
			c.errorf("toolsets."+name, "%v", err)
		}
		c.add(name, tools, unavailable, provided)
		c.kindCheck(ctx, cat, name, opts.Timeout)
		for _, tool := range slices.Sorted(maps.Keys(unavailable)) {
			if slices.Contains(s.Toolsets[name].Tools, tool) {
				continue // an error at its place in the tools list (add)
			}
			c.warnf("toolsets."+name, "the back-end's tool %q is left out: %s", tool, unavailable[tool])
		}
	}
	c.checkNames()
	index := schema.NewToolIndex(provided)
	c.checkDescriptions(index)
	c.checkRefs(index)
	c.checkArgs(index)
	c.checkEffective(index)
	c.checkContracts(ctx, index, opts.Timeout)
	return c.diags
}

// start builds one toolset and lists its tools within the timeout.
// Tools the toolset left out (a schema it would not load) come back in
// unavailable, with why.
func start(ctx context.Context, s *schema.Spec, cat *engine.Components, name string, timeout time.Duration, red *redact.Redactor) (tools []engine.Tool, unavailable map[string]string, closeFn func(), err error) {
	cfg := s.Toolsets[name]
	if _, err := engine.Get[engine.ToolsetKind](cat, schema.KindToolset, cfg.Kind); err != nil {
		return nil, nil, nil, err
	}
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	set, err := cat.StartToolset(sctx, engine.ToolsetConfig{
		Name: name, Section: cfg, Dir: s.Dir, Observation: s.Observation.Tool,
		Body: s.Embodiment, Uncertainty: s.Safety.Uncertainty, Redactor: red,
		Contract: func(tool string) schema.ToolContract { return s.ContractFor(name, tool) },
	}, nil)
	if err != nil {
		if sctx.Err() != nil {
			return nil, nil, nil, fmt.Errorf("did not start within %s (--live-timeout): %w", timeout, err)
		}
		return nil, nil, nil, fmt.Errorf("did not start: %w", err)
	}
	closeFn = func() { _ = set.Close() }
	if tools, err = set.Tools(sctx); err != nil {
		return nil, nil, closeFn, fmt.Errorf("listing its tools: %w", err)
	}
	return tools, set.Unavailable(), closeFn, nil
}

// kindCheck runs the toolset kind's own live check, if it has one.
func (c *checker) kindCheck(ctx context.Context, cat *engine.Components, name string, timeout time.Duration) {
	cfg := c.spec.Toolsets[name]
	kind, err := engine.Get[engine.ToolsetKind](cat, schema.KindToolset, cfg.Kind)
	if err != nil || kind.LiveCheck == nil {
		return
	}
	kctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	for _, p := range kind.LiveCheck(kctx, engine.ToolsetConfig{Name: name, Section: cfg, Dir: c.spec.Dir,
		Observation: c.spec.Observation.Tool, Body: c.spec.Embodiment, Redactor: c.redactor}) {
		path := "toolsets." + name
		if p.Path != "" {
			path += "." + p.Path
		}
		if p.Warning {
			c.warnf(path, "%s", p.Message)
		} else {
			c.errorf(path, "%s", p.Message)
		}
	}
}

type checker struct {
	spec     *schema.Spec
	redactor *redact.Redactor
	byName   map[string]*liveTool // by bare tool name
	// down are the toolsets that did not start: names they might provide
	// are not reported again.
	down  []string
	diags []schema.Diagnostic
}

func (c *checker) warnf(path, format string, a ...any) {
	c.diags = append(c.diags, schema.Diagnostic{Pos: c.spec.Pos(path), Path: path, Warning: true, Message: path + ": " + fmt.Sprintf(format, a...)})
}

func (c *checker) errorf(path, format string, a ...any) {
	c.errorfAt(c.spec.Pos(path), path, format, a...)
}

// errorfAt reports a problem of path at a position inside its value (an
// argument an expression reads).
func (c *checker) errorfAt(at schema.Pos, path, format string, a ...any) {
	c.diags = append(c.diags, schema.Diagnostic{Pos: at, Path: path, Message: path + ": " + fmt.Sprintf(format, a...)})
}

// add registers a toolset's live tools, narrowed by its tools list, and
// reports listed tools the back-end does not have or had to leave out
// (unavailable, with why: the session refuses to start on those too).
func (c *checker) add(set string, tools []engine.Tool, unavailable map[string]string, provided map[string][]string) {
	cfg := c.spec.Toolsets[set]
	var names []string
	for _, t := range tools {
		def := t.Def()
		names = append(names, def.Name)
		if len(cfg.Tools) > 0 && !slices.Contains(cfg.Tools, def.Name) {
			continue
		}
		contract, declared := engine.ContractOf(t, c.spec.ContractFor(set, def.Name))
		c.byName[def.Name] = &liveTool{toolset: set, tool: t, props: properties(def.InputSchema), contract: contract, declared: declared}
		provided[set] = append(provided[set], def.Name)
	}
	for i, n := range cfg.Tools {
		path := fmt.Sprintf("toolsets.%s.tools[%d]", set, i)
		switch why, left := unavailable[n]; {
		case slices.Contains(names, n):
		case left:
			c.errorf(path, "the back-end's tool %q is left out, so it cannot be offered: %s", n, why)
		default:
			c.errorf(path, "the running back-end has no tool %q%s", n, schema.Suggest(n, names))
		}
	}
}

// checkNames lists the tools whose names the providers would refuse, with
// the alias the model sees instead, and refuses two tools that would reach
// the model under one name (the session would not start).
func (c *checker) checkNames() {
	var offered []string
	for _, name := range slices.Sorted(maps.Keys(c.byName)) {
		if lt := c.byName[name]; !c.spec.ContractFor(lt.toolset, name).Hidden {
			offered = append(offered, name)
		}
	}
	names, err := model.NewToolNames(offered)
	if err != nil {
		// At the toolset of an aliased name whose alias is taken.
		taken := map[string]int{}
		for _, n := range offered {
			taken[model.WireToolName(n)]++
		}
		for _, n := range offered {
			if w := model.WireToolName(n); w != n && taken[w] > 1 {
				c.errorf("toolsets."+c.byName[n].toolset, "%v", err)
				return
			}
		}
		c.errorf("toolsets", "%v", err)
		return
	}
	for _, a := range names.Aliases() {
		set := "toolsets." + c.byName[a.Name].toolset
		c.warnf(set, "the tool %q is offered to the model as %q (providers accept only tool names matching %s); the run log records both", a.Name, a.Wire, model.ToolNamePattern)
	}
}

// properties reads the argument names of an input schema.
func properties(raw json.RawMessage) map[string]bool {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(raw, &s) != nil || s.Properties == nil {
		return nil
	}
	out := make(map[string]bool, len(s.Properties))
	for k := range s.Properties {
		out[k] = true
	}
	return out
}

// checkRefs resolves every tool name the spec uses against the live tools.
func (c *checker) checkRefs(index schema.ToolIndex) {
	refs := append(c.spec.ToolRefs(), c.spec.RuleToolRefs()...)
	for _, r := range refs {
		switch _, _, res := index.Resolve(r.Ref); res {
		case schema.Unknown, schema.Possible:
			if set, _, qualified := strings.Cut(r.Ref, "."); len(c.down) > 0 && (!qualified || slices.Contains(c.down, set)) {
				continue // the start error is the problem to report
			}
			c.errorf(r.Path, "no running back-end has the tool %q%s", r.Ref, schema.Suggest(r.Ref, index.Names()))
		case schema.Ambiguous:
			c.errorf(r.Path, "several toolsets have a tool %q: qualify it as <toolset>.%s", r.Ref, r.Ref)
		}
	}
}

func (c *checker) lookup(index schema.ToolIndex, ref string) *liveTool {
	if _, name, res := index.Resolve(ref); res == schema.Found {
		return c.byName[name]
	}
	return nil
}

// checkArgs checks every argument name a rule reads against the input
// schemas of the tools it applies to: a contract's own tool, or the tools a
// hook's when selects. A name no selected tool has is a typo.
func (c *checker) checkArgs(index schema.ToolIndex) {
	for _, r := range c.spec.ArgReads() {
		var targets []string
		if r.Tool != "" {
			targets = []string{r.Tool}
		} else {
			targets = c.selected(r.PreHook)
		}
		var known []string
		found, checkable := false, false
		for _, t := range targets {
			lt := c.lookup(index, t)
			if lt == nil || lt.props == nil {
				continue
			}
			checkable = true
			found = found || lt.props[r.Arg]
			known = append(known, slices.Sorted(maps.Keys(lt.props))...)
		}
		if checkable && !found {
			slices.Sort(known)
			known = slices.Compact(known)
			c.errorfAt(r.At, r.Path, "reads args.%s, but no tool it applies to (%s) has an argument %q%s (their arguments: %s)",
				r.Arg, strings.Join(targets, ", "), r.Arg, schema.Suggest(r.Arg, known), strings.Join(known, ", "))
		}
	}
}

// selected lists the live tools a pre-hook's when selects; a when that
// cannot be decided without a call's arguments selects the tool.
func (c *checker) selected(hook int) []string {
	var out []string
	if c.spec.Rules == nil || hook < 0 || hook >= len(c.spec.Rules.Pre) {
		return nil
	}
	when := c.spec.Rules.Pre[hook].When
	for _, name := range slices.Sorted(maps.Keys(c.byName)) {
		lt := c.byName[name]
		if when == nil {
			out = append(out, name)
			continue
		}
		env := schema.CallEnv{
			Tool:      schema.ToolInfo{Name: name, Toolset: lt.toolset, Tags: lt.contract.Tags, Physical: lt.contract.Physical},
			Args:      map[string]any{},
			Limits:    c.spec.Embodiment.Limits,
			Clearance: schema.NewClearanceEnv(world.Clearance{}, c.spec.Embodiment.Sectors(), c.spec.Embodiment.Limits),
		}
		v, err := rules.Run(nil, when, &env)
		if b, ok := v.(bool); err != nil || ok && b {
			out = append(out, name)
		}
	}
	return out
}

// checkContracts calls the observation, clearance and readings tools once
// (none that is physical: checkEffective reports those) and checks their
// answers against the back-end contract; the evidence tool must take
// the run-id argument the spec names.
func (c *checker) checkContracts(ctx context.Context, index schema.ToolIndex, timeout time.Duration) {
	s := c.spec
	if lt := c.readable(index, s.Observation.Tool); lt != nil {
		env := call(ctx, lt, s.Observation.Args, timeout)
		if err := observationShape(env, s); err != nil {
			c.errorf("observation.tool", "%s answered outside the contract: %v", s.Observation.Tool, err)
		}
	}
	if lt := c.readable(index, s.Safety.ClearanceTool); lt != nil {
		env := call(ctx, lt, nil, timeout)
		if !env.Success {
			c.errorf("safety.clearance_tool", "%s failed: %s", s.Safety.ClearanceTool, env.Reason)
		} else if _, err := policies.ParseClearance(env.Value, s.Embodiment.Sectors()); err != nil {
			c.errorf("safety.clearance_tool", "%s answered outside the contract: %v", s.Safety.ClearanceTool, err)
		}
	}
	if rd := s.Safety.Readings; rd != nil {
		if lt := c.readable(index, rd.Tool); lt != nil {
			env := call(ctx, lt, nil, timeout)
			if !env.Success {
				c.errorf("safety.readings.tool", "%s failed: %s", rd.Tool, env.Reason)
			} else if _, err := rules.NewReadingsEnv(env.Value, rd.Values); err != nil {
				c.errorf("safety.readings.tool", "%s answered outside the contract: %v", rd.Tool, err)
			}
		}
	}
	if lt := c.lookup(index, s.Evaluator.Evidence); lt != nil && s.Evaluator.RunIDArg != "" && lt.props != nil && !lt.props[s.Evaluator.RunIDArg] {
		c.errorf("evaluator.run_id_arg", "%s has no argument %q to receive the run id%s", s.Evaluator.Evidence, s.Evaluator.RunIDArg,
			schema.Suggest(s.Evaluator.RunIDArg, slices.Sorted(maps.Keys(lt.props))))
	}
}

func call(ctx context.Context, lt *liveTool, args map[string]any, timeout time.Duration) runlog.Envelope {
	if args == nil {
		args = map[string]any{}
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return runlog.Failure(err.Error())
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return lt.tool.Call(cctx, raw)
}

// observationShape checks an observation tool's answer: a success whose
// value is an #Observation (its fields beside success, as the observe stage
// reads them), images of declared cameras.
func observationShape(env runlog.Envelope, s *schema.Spec) error {
	if !env.Success {
		return fmt.Errorf("it failed: %s", env.Reason)
	}
	v := env.Value
	var errs []error
	if err := schema.CheckContract("observation", v); err != nil {
		errs = append(errs, err)
	}
	if cl, ok := v["clearance"].(map[string]any); ok {
		if _, err := policies.ParseClearance(cl, s.Embodiment.Sectors()); err != nil {
			errs = append(errs, fmt.Errorf("clearance: %w", err))
		}
	}
	var cams []string
	for _, cam := range s.Embodiment.Cameras {
		cams = append(cams, cam.Name)
	}
	for _, img := range env.Images {
		if len(cams) > 0 && !slices.Contains(cams, img.Camera) {
			errs = append(errs, fmt.Errorf("an image's _meta.camera is %q, not a camera of the embodiment (%s)", img.Camera, strings.Join(cams, ", ")))
		}
	}
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	if len(msgs) == 0 {
		return nil
	}
	return errors.New(strings.Join(msgs, "; "))
}
