package telemetry_test

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/telemetry"
)

// The body's uncertainty is the session's, not a task's: it starts at a
// safety event after which a motion may have run unobserved, lasts across
// a task's end, and its seconds are counted when an observation clears it
// in the next task (the events' own times, not the clock's).
func TestUncertainTimeSpansTasks(t *testing.T) {
	m, err := telemetry.NewMetrics()
	if err != nil {
		t.Fatal(err)
	}
	page := func() string {
		rec := httptest.NewRecorder()
		m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
		b, err := io.ReadAll(rec.Result().Body)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	t0 := time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
	write := func(task int, evs ...runlog.Event) {
		s, err := m.Sink(engine.TaskInfo{Task: task, Start: t0})
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			if err := s.Write(ev); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
	write(1,
		runlog.Event{Kind: runlog.EventSafety, Turn: 1, Time: t0, Safety: "backend_killed"},
		runlog.Event{Kind: runlog.EventSafety, Turn: 1, Time: t0.Add(time.Second), Safety: runlog.SafetyLateReply},
		runlog.Event{Kind: runlog.EventDone, Turn: 1, Time: t0.Add(2 * time.Second), Done: &runlog.Report{Reason: runlog.DoneCancelled}})
	if p := page(); !strings.Contains(p, "thea_body_uncertain 1\n") || !strings.Contains(p, "thea_body_uncertain_seconds_total 0\n") {
		t.Fatalf("after a kill, the body is not uncertain:\n%s", p)
	}
	write(2, runlog.Event{Kind: runlog.EventSafety, Turn: 1, Time: t0.Add(5 * time.Second), Safety: "uncertainty_cleared"})
	p := page()
	for _, want := range []string{"thea_body_uncertain 0\n", "thea_body_uncertain_seconds_total 5\n",
		`thea_safety_events_total{kind="backend_killed"} 1` + "\n", "thea_turns_total 2\n"} {
		if !strings.Contains(p, want) {
			t.Errorf("/metrics lacks %q:\n%s", want, p)
		}
	}
}
