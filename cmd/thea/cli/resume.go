package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/operator"
	"github.com/thea-harness/thea/runlog"
)

// resumeSession is a session whose first task continues the unfinished
// task of a run directory (thea run --resume) instead of starting one.
type resumeSession struct {
	*engine.Harness
	dir     string
	started bool
	face    io.Closer // thea serve --mcp: the MCP face, closed with the session
}

// Close closes the MCP face, if any, then the session.
func (s *resumeSession) Close() error {
	if s.face == nil {
		return s.Harness.Close()
	}
	return errors.Join(s.face.Close(), s.Harness.Close())
}

var _ operator.Session = (*resumeSession)(nil)

func (s *resumeSession) RunStream(ctx context.Context, instruction string, opts ...engine.RunOption) iter.Seq[runlog.Event] {
	if !s.started {
		s.started = true
		opts = append(opts, engine.WithResume(s.dir))
	}
	return s.Harness.RunStream(ctx, instruction, opts...)
}

// readResume reads the task to resume from dir and tells the operator
// what it continues and whether the spec changed since.
func readResume(ctx context.Context, h *engine.Harness, dir string, w io.Writer) (engine.ResumeInfo, error) {
	info, err := h.ReadResume(ctx, dir)
	if err != nil {
		return info, fmt.Errorf("--resume: %w", err)
	}
	cp := info.Checkpoint
	fmt.Fprintf(w, "thea: resuming task %d of %s after turn %d: %q\n", cp.Task, dir, cp.Turn, cp.Instruction)
	if info.Changed {
		fmt.Fprintf(w, "thea: the spec changed since the checkpoint (%s, now %s): the safety policy is the spec's as loaded now\n", cp.SpecDigest, info.SpecDigest)
	}
	return info, nil
}
