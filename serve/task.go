package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/thea-harness/thea/runlog"
	"sync"
	"sync/atomic"
	"time"
)

// sseEvent is one event of a task's stream, encoded once.
type sseEvent struct {
	id   int
	name string // the engine event's kind, or a server event (pending, resolved)
	data []byte
}

// taskRun is one task submitted to the server and its event log. Every
// event is kept (its images apart, bounded: see images.go), so a client
// that connects late, or reconnects with Last-Event-ID, reads the whole
// task.
type taskRun struct {
	id          int
	instruction string
	started     time.Time
	cancel      context.CancelCauseFunc
	stop        atomic.Bool // should_cancel

	mu       sync.Mutex
	events   []sseEvent
	changed  chan struct{} // closed on every append, then replaced
	finished bool
	report   *runlog.Report
	turn     int
	revision *string // a revised instruction not yet polled
}

func newTaskRun(id int, instruction string, now time.Time, cancel context.CancelCauseFunc) *taskRun {
	return &taskRun{id: id, instruction: instruction, started: now, cancel: cancel, changed: make(chan struct{})}
}

// append adds one event and wakes every reader.
func (r *taskRun) append(name string, v any) {
	b := encode(&name, v)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.add(name, b, v)
}

// eventWithImages is an engine event whose images the server keeps: the
// data names each (camera, type, size) and where to fetch it.
type eventWithImages struct {
	runlog.Event
	Images []ImageRef `json:"images"`
}

// appendEvent adds one engine event; its images, if any, are kept in imgs
// under the event's id.
func (r *taskRun) appendEvent(ev runlog.Event, imgs *imageStore) {
	name := string(ev.Kind)
	r.mu.Lock()
	defer r.mu.Unlock()
	var v any = ev
	if len(ev.Images) > 0 {
		v = eventWithImages{Event: ev, Images: imgs.keepEvent(r.id, len(r.events)+1, ev)}
	}
	r.add(name, encode(&name, v), ev)
}

// finish appends the done event and marks the log complete in one step, so
// a reader that sees done also sees the end.
func (r *taskRun) finish(done runlog.Event) {
	name := string(done.Kind)
	b := encode(&name, done)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.finished = true
	r.report = done.Done
	r.add(name, b, done)
}

// add appends an encoded event and wakes the readers; r.mu is held.
func (r *taskRun) add(name string, b []byte, v any) {
	r.events = append(r.events, sseEvent{id: len(r.events) + 1, name: name, data: b})
	if ev, ok := v.(runlog.Event); ok && ev.Turn > r.turn {
		r.turn = ev.Turn
	}
	close(r.changed)
	r.changed = make(chan struct{})
}

// encode marshals an event; one that cannot be encoded becomes a
// server_error event rather than being lost silently.
func encode(name *string, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": fmt.Sprintf("encoding a %s event: %v", *name, err)})
		*name = "server_error"
	}
	return b
}

// since returns the events after id, a channel closed on the next append,
// and whether the log is complete.
func (r *taskRun) since(id int) ([]sseEvent, <-chan struct{}, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if id < 0 {
		id = 0
	}
	var evs []sseEvent
	if id < len(r.events) {
		evs = r.events[id:len(r.events):len(r.events)]
	}
	return evs, r.changed, r.finished
}

// revise records a revised instruction for the next poll_replan.
func (r *taskRun) revise(text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.revision = &text
}

// pollReplan is the task's poll_replan: a revision is returned once.
func (r *taskRun) pollReplan() (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.revision == nil {
		return "", false
	}
	text := *r.revision
	r.revision = nil
	return text, true
}

// TaskView is a task as GET /v1/tasks/{id} and /v1/status show it.
type TaskView struct {
	ID          int            `json:"id"`
	Instruction string         `json:"instruction"`
	State       string         `json:"state"` // running | done
	Started     time.Time      `json:"started"`
	Turn        int            `json:"turn"`
	Events      int            `json:"events"`
	Report      *runlog.Report `json:"report,omitempty"`
	// ReportPage is where `thea report`'s page of the run is served, once
	// the task is done and its run log written.
	ReportPage string `json:"report_page,omitempty"`
}

func (r *taskRun) view() TaskView {
	r.mu.Lock()
	defer r.mu.Unlock()
	v := TaskView{ID: r.id, Instruction: r.instruction, State: "running", Started: r.started,
		Turn: r.turn, Events: len(r.events), Report: r.report}
	if r.finished {
		v.State = "done"
		if r.report != nil && r.report.RunDir != "" {
			v.ReportPage = fmt.Sprintf("/v1/tasks/%d/report", r.id)
		}
	}
	return v
}
