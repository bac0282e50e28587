package serve

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// requestLog is a scripted model ("recorded" in a spec) that keeps the text
// of every request it answers, and whether the session was paused then.
type requestLog struct {
	model.Model
	h *engine.Harness

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

// firstOnly checks that the model was asked once: the task's first
// request, none while the session is paused.
func (r *requestLog) firstOnly(t *testing.T) {
	t.Helper()
	if reqs, _ := r.snapshot(); len(reqs) != 1 {
		t.Fatalf("%d model requests while paused, want the first only", len(reqs))
	}
}

// toldOfHandBack checks that the task made two requests, none while paused,
// and that the one after the hand back carries handoverNote and who paused.
func (r *requestLog) toldOfHandBack(t *testing.T, pausedBy string) {
	t.Helper()
	reqs, whilePaused := r.snapshot()
	if len(reqs) != 2 || whilePaused != 0 {
		t.Fatalf("%d requests, %d while paused; want 2, none paused", len(reqs), whilePaused)
	}
	if !strings.Contains(reqs[1], "The operator's note: "+handoverNote) || !strings.Contains(reqs[1], "an operator ("+pausedBy+") paused you") {
		t.Errorf("the request after the hand back:\n%s", reqs[1])
	}
}

// startRecorded is startSpec with the spec's script provider renamed
// "recorded", whose model logs its requests.
func startRecorded(t *testing.T, spec, turns string, cfg Config) (*fixture, *requestLog) {
	t.Helper()
	spec = strings.Replace(spec, "provider: script", "provider: recorded", 1)
	opts := sessionOptions(t)
	c, err := opts.Components.Lookup(schema.KindProvider, "script")
	if err != nil {
		t.Fatal(err)
	}
	log := &requestLog{}
	prov := c.(engine.ProviderKind)
	prov.Name = "recorded"
	build := prov.New
	prov.New = func(m schema.Model, dir string) (model.Model, error) {
		inner, err := build(m, dir)
		if err != nil {
			return nil, err
		}
		log.Model = inner
		return log, nil
	}
	if err := opts.Components.Add(prov); err != nil {
		t.Fatal(err)
	}
	srv, h := newSession(t, loadSpec(t, spec, turns, opts), opts, cfg)
	log.h = h
	return serveSession(t, srv, h, cfg), log
}

const handoverNote = "I drove it back to the dock by hand; the hall door is closed now."

// Over the API: a pause mid-drive stops the drive through the stop path
// (the back-end's stop tool, on the record before the hand back), no model
// request is made while paused, the hand back needs a note, and the next
// request carries it; both are handover events with who and when.
func TestServePauseAndHandBack(t *testing.T) {
	runs := t.TempDir()
	spec, started := driveSpec(t, runs)
	f, log := startRecorded(t, spec, driveTurns, Config{})
	_, s := f.driving(started)

	var paused Handed
	if code := f.do("POST", "/v1/session/pause", map[string]string{"by": "dock operator"}, &paused); code != http.StatusOK {
		t.Fatalf("pause: %d", code)
	}
	if !paused.Paused || paused.Handover.By != "dock operator" || paused.Handover.Call != "drive" || paused.Handover.PausedAt.IsZero() {
		t.Fatalf("pause: %+v", paused)
	}
	var refused apiError
	if code := f.do("POST", "/v1/session/pause", nil, &refused); code != http.StatusConflict || !strings.Contains(refused.Error, "already paused") {
		t.Fatalf("a second pause: %d %+v", code, refused)
	}
	var st Status
	f.do("GET", "/v1/status", nil, &st)
	if st.Paused == nil || st.Paused.By != "dock operator" {
		t.Fatalf("status while paused: %+v", st.Paused)
	}
	// The stop path and the pause reach the stream while the task waits.
	got := s.until("handover")
	for !strings.Contains(names(got), "safety") {
		got = append(got, s.until("safety")...)
	}
	log.firstOnly(t)
	if code := f.do("POST", "/v1/session/resume", map[string]string{}, &refused); code != http.StatusBadRequest || !strings.Contains(refused.Error, "note: required") {
		t.Fatalf("a hand back without a note: %d %+v", code, refused)
	}
	var back Handed
	if code := f.do("POST", "/v1/session/resume", map[string]string{"note": handoverNote}, &back); code != http.StatusOK {
		t.Fatalf("resume: %d", code)
	}
	if back.Paused || back.Handover.By != "api" || back.Handover.PausedBy != "dock operator" || back.Handover.Note != handoverNote {
		t.Fatalf("resume: %+v", back)
	}
	if code := f.do("POST", "/v1/session/resume", map[string]string{"note": ""}, &refused); code != http.StatusConflict {
		t.Fatalf("a second hand back: %d %+v", code, refused)
	}
	var evs []runlog.Event
	for _, m := range s.rest() {
		evs = append(evs, decodeAs[runlog.Event](t, m))
	}
	if done := evs[len(evs)-1]; done.Done == nil || done.Done.Reason != runlog.DoneFinal {
		t.Fatalf("done: %+v", done.Done)
	}
	log.toldOfHandBack(t, "dock operator")
	// The run log: the stop tool's call before the hand back, both
	// handover events with who.
	record := runLogOf(t, runs)
	stopBeforeDone(t, record)
	var seq []string
	for _, ev := range record {
		switch {
		case ev.Kind == runlog.EventSafety && ev.Safety == "stop":
			seq = append(seq, "stop")
		case ev.Kind == runlog.EventHandover:
			seq = append(seq, ev.Handover.Action+" by "+ev.Handover.By)
		}
	}
	if got := strings.Join(seq, ", "); !strings.HasSuffix(got, "hand_back by api") || !strings.Contains(got, "pause by dock operator") ||
		strings.Index(got, "stop") > strings.Index(got, "hand_back") {
		t.Errorf("the record's stop and handover events: %s", got)
	}
}

// A stop while paused ends the task at once (the loop waits for a hand
// back that may never come; nothing moves).
func TestServeStopWhilePaused(t *testing.T) {
	runs := t.TempDir()
	spec, started := driveSpec(t, runs)
	f := startSpec(t, spec, driveTurns, Config{})
	id, s := f.driving(started)
	if code := f.do("POST", "/v1/session/pause", nil, nil); code != http.StatusOK {
		t.Fatalf("pause: %d", code)
	}
	s.until("handover")
	f.stopTask(id, false)
	evs := s.rest()
	if done := decodeAs[runlog.Event](t, evs[len(evs)-1]); done.Done == nil || done.Done.Reason != runlog.DoneCancelled {
		t.Fatalf("done: %+v", done.Done)
	}
}

// The description's Handover schema names every field the event carries.
func TestOpenAPIDescribesHandover(t *testing.T) {
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]any `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(openAPI, &doc); err != nil {
		t.Fatal(err)
	}
	props := doc.Components.Schemas["Handover"].Properties
	ty := reflect.TypeFor[runlog.Handover]()
	for i := range ty.NumField() {
		name, _, _ := strings.Cut(ty.Field(i).Tag.Get("json"), ",")
		if props[name] == nil {
			t.Errorf("openapi.json's Handover lacks %q", name)
		}
	}
	if len(props) != ty.NumField() {
		t.Errorf("openapi.json's Handover has %d properties, the event %d", len(props), ty.NumField())
	}
}
