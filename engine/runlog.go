package engine

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/thea-harness/thea/runlog"
)

// buildRunLog resolves the run-log directory.
func (h *Harness) buildRunLog() {
	dir := h.spec.RunLog.Dir
	switch {
	case h.opts.RunLogDir != "":
		// The caller's path (a --run-log flag): relative to the process's
		// working directory, not the spec's.
		h.runLogDir = h.opts.RunLogDir
	case !h.spec.RunLog.Enabled:
	case dir == "":
		h.runLogDir = h.resolve(filepath.Join(".thea", "runs"))
	default:
		h.runLogDir = h.resolve(dir)
	}
}

var _ Sink = (*runlog.Writer)(nil)

// openRunLog opens the run log of one task: a directory under base named
// after when the task started, written by the run log's own Writer.
func openRunLog(base string, now time.Time, task int) (*runlog.Writer, error) {
	dir := filepath.Join(base, fmt.Sprintf("%s-task%d", now.UTC().Format("20060102T150405.000000000Z"), task))
	return runlog.Create(dir)
}
