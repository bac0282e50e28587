package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"

	"github.com/thea-harness/thea/schema"
)

// Guarded is a started toolset whose tools carry the tool guarantees (see
// GuardTool): what every kind's tools get from the engine, so a kind
// implements only its transport. Toolset is the kind's own.
type Guarded struct {
	Toolset
	tools []Tool
	// unavailable are the tools left out at start, with why.
	unavailable map[string]string
}

// StartToolset starts the toolset cfg names through its registered kind,
// under the installed body layer (SetBody); see StartToolset.
func (c *Components) StartToolset(ctx context.Context, cfg ToolsetConfig, logger *slog.Logger) (*Guarded, error) {
	kind, err := Get[ToolsetKind](c, schema.KindToolset, cfg.Section.Kind)
	if err != nil {
		return nil, err
	}
	return StartToolset(ctx, kind, cfg, c.body, logger)
}

// StartToolset builds one toolset and guards its tools (GuardToolset): a
// transport kind's back-end under layer, the body layer, or an in-process
// kind's tools, none of them physical. The session and `thea validate
// --live` start toolsets here (through Components.StartToolset), so what
// validates runs the same tools, and every start error passes
// cfg.Redactor here: a back-end that dies at start leaves its stderr in
// the error, and every command prints that error.
func StartToolset(ctx context.Context, kind ToolsetKind, cfg ToolsetConfig, layer BodyLayer, logger *slog.Logger) (*Guarded, error) {
	if err := kind.check(); err != nil {
		return nil, err
	}
	set, err := startKind(ctx, kind, cfg, layer)
	if err != nil {
		return nil, RedactError(cfg.Redactor, err)
	}
	g, err := GuardToolset(ctx, set, cfg, logger)
	if err == nil && kind.InProcess != nil {
		err = notPhysical(g, cfg, kind.Name)
	}
	if err != nil {
		_ = set.Close()
		return nil, RedactError(cfg.Redactor, err)
	}
	return g, nil
}

// startKind builds the kind's toolset: its transport under the body layer,
// or its in-process tools.
func startKind(ctx context.Context, kind ToolsetKind, cfg ToolsetConfig, layer BodyLayer) (Toolset, error) {
	if kind.InProcess != nil {
		return kind.InProcess(ctx, cfg)
	}
	if layer == nil {
		return nil, fmt.Errorf("%s toolset %q: this build installed no body layer, and a back-end's tools run only under one", kind.Name, cfg.Name)
	}
	set, err := layer.Start(ctx, cfg, kind.Transport)
	if err != nil {
		return nil, fmt.Errorf("%s toolset %q: %w", kind.Name, cfg.Name, err)
	}
	return set, nil
}

// notPhysical refuses an in-process toolset that would offer a physical
// tool: nothing would hold the body's motion lock or stop the motion.
func notPhysical(g *Guarded, cfg ToolsetConfig, kind string) error {
	for _, t := range g.tools {
		if name := t.Def().Name; cfg.contract(name).Physical {
			return fmt.Errorf("%s toolset %q: its tool %s is declared physical, but %s tools run in the harness, outside the body layer: a physical tool is served by a transport kind's back-end",
				kind, cfg.Name, name, kind)
		}
	}
	return nil
}

// GuardToolset lists set's tools once and wraps each with the tool
// guarantees. A tool whose name a model provider would refuse is left out
// (logged); one whose inputSchema refers outside itself or is past the
// schema bounds (MaxSchemaDepth, MaxSchemaBytes) is left out and listed in
// Unavailable; the toolset's tools list must name only tools it has; a tool
// it would offer that the back-end lists twice is an error (which of the
// two definitions a call meets is unknown). logger nil discards.
func GuardToolset(ctx context.Context, set Toolset, cfg ToolsetConfig, logger *slog.Logger) (*Guarded, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	logger = logger.With("toolset", cfg.Name)
	if n := cfg.Section.MaxResultBytes; n <= 0 {
		return nil, fmt.Errorf("toolsets.%s.max_result_bytes is %d: it must be positive (schema.Load fills the schema's default)", cfg.Name, n)
	}
	tools, err := set.Tools(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing tools: %w", err)
	}
	byName := map[string]Tool{}
	have := make([]string, 0, len(tools))
	var twice []string
	for _, t := range tools {
		name := t.Def().Name
		if why := badToolName(name); why != "" {
			logger.Warn("tool left out", "tool", cfg.Redactor.String(fmt.Sprintf("%q", name)), "why", cfg.Redactor.String(why))
			continue
		}
		if _, dup := byName[name]; dup {
			twice = append(twice, name)
			continue
		}
		byName[name] = t
		have = append(have, name)
	}
	keep, missing := restrict(cfg.Section.Tools, have)
	if len(missing) > 0 {
		return nil, fmt.Errorf("toolset does not provide %s, named in its tools list (it has: %s)", quotedNames(missing), quotedNames(have))
	}
	if twice = slices.DeleteFunc(twice, func(n string) bool { return !keep[n] }); len(twice) > 0 {
		slices.Sort(twice)
		return nil, fmt.Errorf("the back-end lists %s more than once: which definition a call would meet is unknown; fix the back-end, or leave the tool out with the toolset's tools list", quotedNames(slices.Compact(twice)))
	}
	g := &Guarded{Toolset: set}
	for _, name := range have {
		if !keep[name] {
			continue
		}
		gt, err := GuardTool(byName[name], cfg.contract(name), cfg.Section.Timeout.D(), cfg.Section.MaxResultBytes)
		if errors.Is(err, ErrToolUnavailable) {
			// The reason quotes the back-end's schema.
			reason := cfg.Redactor.String(err.Error())
			logger.Warn("tool unavailable", "tool", cfg.Redactor.String(name), "reason", reason)
			if g.unavailable == nil {
				g.unavailable = map[string]string{}
			}
			g.unavailable[name] = reason
			continue
		}
		if err != nil {
			return nil, err
		}
		g.tools = append(g.tools, gt)
	}
	return g, nil
}

// Tools returns the guarded tools listed at start.
func (g *Guarded) Tools(context.Context) ([]Tool, error) { return g.tools, nil }

// Unavailable lists the tools left out at start (an inputSchema that refers
// outside itself), each with the reason; `thea validate --live` and
// start-up reports show them.
func (g *Guarded) Unavailable() map[string]string { return maps.Clone(g.unavailable) }
