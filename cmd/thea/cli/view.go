package cli

import (
	"io"
	"os"
	"time"

	"golang.org/x/term"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/operator"
	"github.com/thea-harness/thea/operator/trace"
)

// tickEvery is the live view's spinner rate.
const tickEvery = 100 * time.Millisecond

// newView picks the view for w: the raw JSONL stream (--json) wins, then
// the live view on a terminal, else the plain trace (CI logs). animated
// says whether the view wants Tick.
func (a *App) newView(w io.Writer, jsonl, verbose bool) (v operator.View, animated bool) {
	switch {
	case jsonl:
		return still{trace.NewJSONL(w)}, false
	case a.isTerminal(w):
		return trace.NewLive(w, verbose), true
	}
	return still{trace.New(w, verbose)}, false
}

// isTerminal reports whether w is a terminal (App.IsTerminal overrides).
func (a *App) isTerminal(w io.Writer) bool {
	if a.IsTerminal != nil {
		return a.IsTerminal(w)
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// still is a view with nothing to animate.
type still struct{ engine.Sink }

func (still) Tick(time.Time) error { return nil }
func (still) Clear()               {}
