package engine

import (
	"context"
	"errors"

	"github.com/thea-harness/thea/runlog"
)

// PurposeReset is the reset step thea test and thea eval run before each
// episode (episodes.reset.tool): a read, so only a tool that cannot move
// the robot.
const PurposeReset = PurposeVerifier + 1

// ErrNoResetTool is CallReset on a spec without a reset tool.
var ErrNoResetTool = errors.New("the spec declares no episodes.reset.tool")

// CallReset calls the spec's reset tool between tasks, with args (the
// episode's seed and task, as episodes.reset.args names them). It takes the
// session as a task would, so it never runs beside one; a physical reset
// tool is refused without running, like every read of one.
func (h *Harness) CallReset(ctx context.Context, args map[string]any) (runlog.Envelope, error) {
	name := h.spec.Episodes.ResetTool()
	if name == "" {
		return runlog.Envelope{}, ErrNoResetTool
	}
	if h.closed.Load() {
		return runlog.Envelope{}, ErrClosed
	}
	if !h.busy.CompareAndSwap(false, true) {
		return runlog.Envelope{}, ErrBusy
	}
	defer h.busy.Store(false)
	return h.read(ctx, PurposeReset, name, args), nil
}
