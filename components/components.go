package components

import (
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/thea-harness/thea/channels"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/models/anthropic"
	"github.com/thea-harness/thea/models/human"
	"github.com/thea-harness/thea/models/openai"
	"github.com/thea-harness/thea/models/replay"
	"github.com/thea-harness/thea/models/script"
	"github.com/thea-harness/thea/policies"
	"github.com/thea-harness/thea/stages"
	"github.com/thea-harness/thea/toolsets"
	"github.com/thea-harness/thea/toolsets/rosbridge"
)

// Options are the process-level collaborators the components share (logger,
// locks, terminal). Every field is optional.
type Options struct {
	// Logger receives lifecycle messages (back-end start, crash, restart).
	Logger *slog.Logger
	// Locks serialises physical calls to one back-end across the sessions
	// of this process.
	Locks *body.PhysicalLocks
	// Terminal is the process's terminal, shared with whatever reads
	// instructions from it; nil makes one over Stdin and Stderr.
	Terminal *channels.Terminal
	Stdin    io.Reader
	Stderr   io.Writer
}

// Default builds every component this build ships, registered once each:
// the catalog alone, which validation and the reference read. A session is
// built from Session, which holds it.
func Default(d Options) (*engine.Components, error) {
	if d.Terminal == nil {
		in, out := d.Stdin, d.Stderr
		if in == nil {
			in = os.Stdin
		}
		if out == nil {
			out = os.Stderr
		}
		d.Terminal = channels.NewTerminal(in, out)
	}
	c := engine.NewComponents()
	if err := c.Add(stages.Components()...); err != nil {
		return nil, fmt.Errorf("stages: %w", err)
	}
	// One body layer for every transport kind, over the process's locks:
	// the engine starts each kind's toolsets under it, so toolsets of
	// different kinds driving one body share its motion state.
	c.SetBody(body.NewLayer(body.Shared{Locks: d.Locks, Logger: d.Logger}))
	if err := c.Add(
		toolsets.BuiltinKind(),
		toolsets.MCPKind(),
		rosbridge.Kind(),
	); err != nil {
		return nil, fmt.Errorf("toolsets: %w", err)
	}
	if err := c.Add(append(openai.Components(),
		anthropic.Provider(),
		script.Provider(),
		replay.Provider(),
		human.Provider(d.Terminal),
	)...); err != nil {
		return nil, fmt.Errorf("model providers: %w", err)
	}
	if err := c.Add(policies.Components()...); err != nil {
		return nil, fmt.Errorf("hook actions: %w", err)
	}
	if err := c.Add(
		channels.TerminalChannel(d.Terminal),
		channels.ScriptChannel(),
		channels.NoneChannel(),
	); err != nil {
		return nil, fmt.Errorf("user channels: %w", err)
	}
	return c, nil
}
