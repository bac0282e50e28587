package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
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

// StartToolset builds one toolset through its kind and guards its tools
// (GuardToolset). The session and `thea validate --live` start toolsets
// here, so what validates runs the same tools, and every start error
// passes cfg.Redactor here: a back-end that dies at start leaves its
// stderr in the error, and every command prints that error.
func StartToolset(ctx context.Context, kind ToolsetKind, cfg ToolsetConfig, logger *slog.Logger) (*Guarded, error) {
	set, err := kind.New(ctx, cfg)
	if err != nil {
		return nil, RedactError(cfg.Redactor, err)
	}
	g, err := GuardToolset(ctx, set, cfg, logger)
	if err != nil {
		_ = set.Close()
		return nil, RedactError(cfg.Redactor, err)
	}
	return g, nil
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
