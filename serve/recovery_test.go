package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/redact"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
)

// deafDriveSpec is driveSpec with a motion deaf to its stop tool, killed
// after a short stop_grace; the turns drive, then answer twice.
func deafDriveSpec(t *testing.T, runs string) (spec, started string) {
	t.Helper()
	spec, started = driveSpec(t, runs)
	spec = strings.Replace(spec, `"1", `+startedEnv, `"1", `+deafEnv+`: "1", `+startedEnv, 1)
	spec = strings.Replace(spec, "    stop: {tool: stop}\n", "    stop: {tool: stop}\n    stop_grace: 200ms\n", 1)
	return spec, started
}

// After a killed back-end the robot's state is uncertain: the status says
// so (which back-end, since when) and physical calls are refused until the
// operator clears it. The clear is refused while the motion runs, needs
// {"checked": true}, is refused again once nothing is uncertain, and opens
// the next task's stream and run log as an operator_clear safety event.
func TestServeClearAfterAKilledBackend(t *testing.T) {
	runs := t.TempDir()
	spec, started := deafDriveSpec(t, runs)
	f := startSpec(t, spec, driveTurns+"- text: \"Checked.\"\n", Config{})
	id, s := f.driving(started)

	var st Status
	f.do("GET", "/v1/status", nil, &st)
	if st.Health == nil || len(st.Health.Moving) != 1 || !strings.Contains(st.Health.Moving[0], "drive on the base back-end since") {
		t.Fatalf("health while the motion runs: %+v", st.Health)
	}
	var refusal clearRefusal
	if code := f.do("POST", "/v1/session/clear", map[string]bool{"checked": true}, &refusal); code != http.StatusConflict || refusal.Task != id {
		t.Fatalf("clear while the task moves: %d %+v, want 409 naming task %d", code, refusal, id)
	}

	f.stopTask(id, true)
	killed := false
	for _, m := range s.rest() {
		if ev := decodeAs[runlog.Event](t, m); ev.Kind == runlog.EventSafety && ev.Safety == "backend_killed" {
			killed = true
		}
	}
	if !killed {
		t.Fatal("the deaf back-end was not killed")
	}
	// The motion ends when the killed back-end's call returns, just after
	// the kill's event.
	testtime.Wait(t, "the killed motion to end", func() bool {
		st = Status{}
		f.do("GET", "/v1/status", nil, &st)
		return st.Health != nil && len(st.Health.Moving) == 0
	})
	h := st.Health
	if h == nil || !strings.Contains(h.Uncertain, "drive was cancelled on the base back-end") || h.UncertainToolset != "base" ||
		h.UncertainSince.IsZero() || len(h.Moving) != 0 {
		t.Fatalf("health after the kill: %+v", h)
	}

	for _, body := range []string{`{}`, `{"checked": false}`, `{"checked": true, "checked": true}`} {
		if code, b := f.raw("POST", "/v1/session/clear", []byte(body)); code != http.StatusBadRequest {
			t.Errorf("clear %s: %d %s, want 400", body, code, b)
		}
	}
	var cleared Cleared
	if code := f.do("POST", "/v1/session/clear", map[string]bool{"checked": true}, &cleared); code != http.StatusOK ||
		cleared.Cleared < 1 || cleared.Toolset != "base" || !strings.Contains(cleared.Was, "drive was cancelled") {
		t.Fatalf("clear: %d %+v", code, cleared)
	}
	st = Status{}
	f.do("GET", "/v1/status", nil, &st)
	if st.Health.Uncertain != "" {
		t.Fatalf("still uncertain after the clear: %q", st.Health.Uncertain)
	}
	var again apiError
	if code := f.do("POST", "/v1/session/clear", map[string]bool{"checked": true}, &again); code != http.StatusConflict || !strings.Contains(again.Error, "nothing to clear") {
		t.Errorf("a second clear: %d %+v", code, again)
	}

	next := f.submit("Carry on")
	clearEvent := func(evs []runlog.Event) bool {
		for _, ev := range evs {
			if ev.Kind == runlog.EventSafety && ev.Safety == runlog.SafetyOperatorClear && strings.Contains(ev.Text, "drive was cancelled") {
				return true
			}
		}
		return false
	}
	var evs []runlog.Event
	for _, m := range f.events(next, "").rest() {
		evs = append(evs, decodeAs[runlog.Event](t, m))
	}
	if !clearEvent(evs) {
		t.Errorf("the next task's stream does not record the clear")
	}
	if !clearEvent(taskRunLog(t, runs, next)) {
		t.Errorf("the next task's run log does not record the clear")
	}
}

// taskRunLog reads task n's events.jsonl under runs.
func taskRunLog(t *testing.T, runs string, n int) []runlog.Event {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(runs, fmt.Sprintf("*-task%d", n), "events.jsonl"))
	if err != nil || len(paths) != 1 {
		t.Fatalf("run logs of task %d: %v (%v), want one", n, paths, err)
	}
	fh, err := os.Open(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var evs []runlog.Event
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var ev runlog.Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("%s: %v", paths[0], err)
		}
		evs = append(evs, ev)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return evs
}

// movingSession is a session whose body is uncertain while a motion given
// up on still runs (its back-end not yet killed) and no task runs: the
// window between a task's end and its motion's end.
type movingSession struct {
	mu        sync.Mutex
	moving    []string
	uncertain string
	cleared   int
}

func (m *movingSession) RunStream(context.Context, string, ...engine.RunOption) iter.Seq[runlog.Event] {
	return func(func(runlog.Event) bool) {}
}
func (m *movingSession) ResetSession() error        { return nil }
func (m *movingSession) Close() error               { return nil }
func (m *movingSession) Redactor() *redact.Redactor { return nil }
func (m *movingSession) Health() []engine.ToolsetHealth {
	m.mu.Lock()
	defer m.mu.Unlock()
	return []engine.ToolsetHealth{{Toolset: "base", Uncertain: m.uncertain, Moving: slices.Clone(m.moving)}}
}
func (m *movingSession) ClearUncertain() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.cleared++
	m.uncertain = ""
	return 1
}

// No task runs, but a motion may still run: the clear is refused with 409
// naming the motion, and nothing is cleared; once it has ended, the clear
// is taken.
func TestServeClearRefusedWhileAMotionMayRun(t *testing.T) {
	sess := &movingSession{uncertain: "the robot's state is uncertain since drive timed out", moving: []string{"drive on the base back-end since 10:31:02 (it timed out and has not ended)"}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() { served <- New(Config{}).Serve(ctx, ln, sess) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	f := &fixture{t: t, base: "http://" + ln.Addr().String()}
	var refusal clearRefusal
	if code := f.do("POST", "/v1/session/clear", map[string]bool{"checked": true}, &refusal); code != http.StatusConflict ||
		len(refusal.Moving) != 1 || !strings.Contains(refusal.Error, "a motion may still be running: drive on the base back-end") {
		t.Fatalf("clear while a motion may run: %d %+v", code, refusal)
	}
	sess.mu.Lock()
	cleared := sess.cleared
	sess.moving = nil
	sess.mu.Unlock()
	if cleared != 0 {
		t.Fatalf("cleared %d times while a motion may run", cleared)
	}
	var ok Cleared
	if code := f.do("POST", "/v1/session/clear", map[string]bool{"checked": true}, &ok); code != http.StatusOK || ok.Toolset != "base" {
		t.Fatalf("clear once the motion ended: %d %+v", code, ok)
	}
}
