package engine

import (
	"fmt"
	"github.com/thea-harness/thea/runlog"
)

// maxBetween bounds the events kept while no task runs; past it they are
// counted and the count is delivered instead.
const maxBetween = 256

// betweenTasks holds events emitted while no task runs, for the next task's
// stream: a late reply or kill that arrives after its task stopped waiting
// for the stop path (see TaskStream.Hold) must still reach a run log (and
// the next task's notes: the body may have moved). Guarded by
// Harness.hostMu.
type betweenTasks struct {
	evs     []runlog.Event
	dropped int
}

func (b *betweenTasks) keep(evs ...runlog.Event) {
	for _, ev := range evs {
		if len(b.evs) >= maxBetween {
			b.dropped++
			continue
		}
		b.evs = append(b.evs, ev)
	}
}

// take returns the events kept (and a note of those beyond the bound) and
// empties the store.
func (b *betweenTasks) take() []runlog.Event {
	out := b.evs
	if b.dropped > 0 {
		out = append(out, runlog.Event{Kind: runlog.EventSinkError,
			Text: fmt.Sprintf("%d more events emitted between tasks were not kept (at most %d are)", b.dropped, maxBetween)})
	}
	b.evs, b.dropped = nil, 0
	return out
}
