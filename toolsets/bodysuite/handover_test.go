package bodysuite_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/models/script"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// handoverSpecYAML is stopSpecYAML with an observation before every
// decision: %[1]s the toolset's section, %[2]s the fault directory, %[3]s
// the contracts of tools the session offers none of.
const handoverSpecYAML = `name: handover
model: {provider: script, script: turns.yaml}
embodiment:
  name: handover-base
  cameras: []
  frames: []
  limits: {min_clearance_m: 0.05, safety_margin_m: 0.05}
  lock: {dir: %[2]q}
observation: {tool: observe}
loop: {stages: [task_notes, observe, compact]}
toolsets:
  base:
%[1]s    stop_grace: 10s
tools:
  move_base: {physical: true}
%[3]s
run_log: {enabled: false}
user: {channel: none}
memory: {consolidation: {enabled: false}}
scene_graph: {enabled: false}
`

// requestLog is a scripted model that keeps the text of every decide
// request, and whether the session was paused when it came.
type requestLog struct {
	model.Model
	h *engine.Harness // set once the session is built

	mu       sync.Mutex
	requests []string
	paused   int
}

func (r *requestLog) Generate(ctx context.Context, req model.Request) (model.Response, error) {
	var b strings.Builder
	for _, m := range req.Messages {
		for _, p := range m.Parts {
			b.WriteString(p.Text)
			b.WriteByte('\n')
		}
	}
	if req.Purpose != model.PurposeDecide && req.Purpose != "" {
		return r.Model.Generate(ctx, req) // consolidation, an evaluator
	}
	r.mu.Lock()
	r.requests = append(r.requests, b.String())
	if _, paused := r.h.Paused(); paused {
		r.paused++
	}
	r.mu.Unlock()
	return r.Model.Generate(ctx, req)
}

func (r *requestLog) snapshot() ([]string, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.requests...), r.paused
}

// recordingProvider is the script provider whose models log their requests
// into log.
func recordingProvider(log *requestLog) engine.ProviderKind {
	p := script.Provider()
	build := p.New
	p.New = func(m schema.Model, dir string) (model.Model, error) {
		inner, err := build(m, dir)
		if err != nil {
			return nil, err
		}
		log.Model = inner
		return log, nil
	}
	return p
}

// An operator pauses mid-drive on a back-end whose motion ignores
// cancellation and runs until stopped: the pause ends the call through the
// stop path (the kind's stop reaches the robot, the motion ends stopped),
// no model request is made while paused, and the request after the hand
// back says in words who had the robot, for how long and what they wrote,
// with an observation taken after the hand back.
func TestPauseStopsTheMotionAndHandBackTellsTheModel(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		fb := newFaultBackend(t, tr, "ok", testtime.Scale(5*time.Second).String())
		faults := fb.faults
		spec := fb.write(t, fmt.Sprintf(handoverSpecYAML, fb.section, faults, fb.contracts),
			"- tool_calls: [{name: move_base, arguments: {ms: 600000}}]\n- text: Done after the takeover.\n")
		log := &requestLog{}
		h := sessionOver(t, tr, spec, recordingProvider(log))
		log.h = h

		events := make(chan runlog.Event, 256)
		go func() {
			defer close(events)
			for ev := range h.RunStream(t.Context(), "drive to the door") {
				events <- ev
			}
		}()
		var seen []runlog.Event
		// next returns the first event matching, of those seen since the
		// last one it returned or read from the stream now: the stop path's
		// events come on their own goroutine, in any order with the turn's.
		from := 0
		next := func(what string, match func(runlog.Event) bool) runlog.Event {
			t.Helper()
			for i := from; i < len(seen); i++ {
				if match(seen[i]) {
					return seen[i]
				}
			}
			timer := time.NewTimer(testtime.Scale(30 * time.Second))
			defer timer.Stop()
			for {
				select {
				case ev, ok := <-events:
					if !ok {
						t.Fatalf("the stream ended before %s: %v", what, kinds(seen))
					}
					seen = append(seen, ev)
					if match(ev) {
						return ev
					}
				case <-timer.C:
					t.Fatalf("no %s: %v", what, kinds(seen))
				}
			}
		}
		// after moves next past everything seen so far.
		after := func() { from = len(seen) }
		next("the drive's call", func(ev runlog.Event) bool { return ev.Kind == runlog.EventToolCall && ev.Tool == "move_base" })
		waitLog(t, faults, "start", 1)

		pause, err := h.Pause("test operator")
		if err != nil {
			t.Fatal(err)
		}
		if pause.Call != "move_base" {
			t.Errorf("the pause stopped %q, want move_base", pause.Call)
		}
		if _, err := h.Pause("someone else"); err == nil {
			t.Error("a second pause was accepted")
		}
		// The stop path: the kind's stop is called because the call was
		// cancelled, and the motion answers that it was stopped.
		stop := next("the stop", func(ev runlog.Event) bool {
			return ev.Kind == runlog.EventSafety && string(ev.Safety) == body.SafetyStop
		})
		if stop.Stop == nil || !stop.Stop.OK || stop.Stop.Why != "move_base was cancelled" {
			t.Fatalf("stop: %+v", stop.Stop)
		}
		res := next("the drive's result", func(ev runlog.Event) bool { return ev.Kind == runlog.EventToolResult })
		if res.Result == nil || res.Result.Success || !strings.Contains(res.Result.Reason, "an operator paused the agent during this call") {
			t.Fatalf("the drive's result: %+v", res.Result)
		}
		next("the pause on the record", func(ev runlog.Event) bool {
			return ev.Kind == runlog.EventHandover && ev.Handover != nil && ev.Handover.Action == runlog.HandoverPause && ev.Handover.By == "test operator"
		})
		late := next("the motion's end", func(ev runlog.Event) bool {
			return ev.Kind == runlog.EventSafety && ev.Safety == runlog.SafetyLateReply
		})
		if late.Result == nil || !tr.stopped(*late.Result) {
			t.Fatalf("the motion was not ended by the stop: %+v", late.Result)
		}
		if n := logLines(t, faults, "stop"); tr.name != "rosbridge" && n == 0 {
			t.Fatal("the back-end never received the stop")
		}
		// Paused, the loop waits: the stop path has ended and still no
		// second request.
		if reqs, _ := log.snapshot(); len(reqs) != 1 {
			t.Fatalf("%d model requests while paused, want only the first", len(reqs))
		}

		after()
		back, err := h.HandBack("test operator", "I drove it back to the charging dock by hand; the door is now closed.")
		if err != nil {
			t.Fatal(err)
		}
		if back.PausedBy != "test operator" || back.PausedMS <= 0 {
			t.Errorf("hand back: %+v", back)
		}
		if _, err := h.HandBack("again", ""); err == nil {
			t.Error("a hand back without a pause was accepted")
		}
		told := next("the hand back on the record", func(ev runlog.Event) bool {
			return ev.Kind == runlog.EventHandover && ev.Handover != nil && ev.Handover.Action == runlog.HandoverBack
		})
		obs := next("a fresh observation", func(ev runlog.Event) bool { return ev.Kind == runlog.EventObservation })
		if obs.Turn <= res.Turn || obs.Time.Before(told.Time) {
			t.Errorf("the observation (turn %d, %s) is not after the hand back (turn %d, %s)", obs.Turn, obs.Time, res.Turn, told.Time)
		}
		done := next("done", func(ev runlog.Event) bool { return ev.Kind == runlog.EventDone })
		if done.Done.Reason != runlog.DoneFinal {
			t.Fatalf("done: %+v", done.Done)
		}
		reqs, whilePaused := log.snapshot()
		if whilePaused != 0 {
			t.Errorf("%d model requests made while paused", whilePaused)
		}
		if len(reqs) != 2 {
			t.Fatalf("%d requests, want 2", len(reqs))
		}
		for _, want := range []string{
			"Operator takeover: an operator (test operator) paused you",
			"Your call move_base was stopped when they paused",
			"The operator's note: I drove it back to the charging dock by hand; the door is now closed.",
			"taken after the hand back",
		} {
			if !strings.Contains(reqs[1], want) {
				t.Errorf("the request after the hand back lacks %q:\n%s", want, reqs[1])
			}
			if strings.Contains(reqs[0], want) {
				t.Errorf("the first request already says %q", want)
			}
		}
	})
}

func kinds(evs []runlog.Event) []string {
	var out []string
	for _, ev := range evs {
		out = append(out, string(ev.Kind)+"/"+string(ev.Safety))
	}
	return out
}
