package serve

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
)

// driveSpec is specYAML with the slow MCP back-end (drive, stopped only by
// its stop tool) and a run log in runs.
func driveSpec(t *testing.T, runs string) (spec, started string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	started = filepath.Join(t.TempDir(), "started")
	spec = strings.Replace(specYAML, "run_log: {enabled: false}", fmt.Sprintf("run_log: {enabled: true, dir: %q}", runs), 1)
	spec += fmt.Sprintf(`  base:
    kind: mcp
    command: [%q]
    env: {%s: "1", %s: %q}
    stop: {tool: stop}
tools: {drive: {physical: true}, stop: {hidden: true}}
`, exe, slowServerEnv, startedEnv, started)
	return spec, started
}

const driveTurns = `
- tool_calls: [{name: drive, arguments: {}}]
- text: "Stopped."
`

// driving submits "Drive on" to f (a session whose drive back-end writes
// started when it moves, as driveSpec's does) and returns the task's id and
// stream once the drive moves: the tool_call event precedes the back-end's
// request, so it waits for the back-end's own word.
func (f *fixture) driving(started string) (int, *stream) {
	f.t.Helper()
	id := f.submit("Drive on")
	s := f.events(id, "")
	s.until("tool_call")
	waitFile(f.t, started)
	return id, s
}

// stopTask asks the server to stop task id, interrupting its call or not.
func (f *fixture) stopTask(id int, interrupt bool) {
	f.t.Helper()
	if code := f.do("POST", fmt.Sprintf("/v1/tasks/%d/stop", id), map[string]bool{"interrupt": interrupt}, nil); code != http.StatusAccepted {
		f.t.Fatalf("stop: %d", code)
	}
}

// stopBeforeDone checks that the events (up to done, which is last) hold
// the stop tool's call of the task, with its outcome and duration.
func stopBeforeDone(t *testing.T, evs []runlog.Event) {
	t.Helper()
	var seen []string
	for _, ev := range evs {
		seen = append(seen, string(ev.Kind)+"/"+string(ev.Safety))
	}
	if len(evs) == 0 || evs[len(evs)-1].Kind != runlog.EventDone {
		t.Fatalf("no done last: %v", seen)
	}
	for _, ev := range evs[:len(evs)-1] {
		if ev.Kind == runlog.EventSafety && ev.Safety == "stop" {
			if st := ev.Stop; st == nil || st.Via != runlog.StopViaTool || st.Tool != "stop" || !st.OK || st.DurationMS <= 0 {
				t.Fatalf("stop call: %+v", ev.Stop)
			}
			if ev.Result == nil || !ev.Result.Success {
				t.Fatalf("stop outcome: %+v", ev.Result)
			}
			return
		}
	}
	t.Fatalf("no stop event before the task's done: %v", seen)
}

// A served interrupt during a motion: the stop tool's call is an event of
// the interrupted task, on its stream and in its run log, before its done.
func TestServeInterruptStopOnTheTaskRecord(t *testing.T) {
	runs := t.TempDir()
	spec, started := driveSpec(t, runs)
	f := startSpec(t, spec, driveTurns, Config{})
	id, s := f.driving(started)
	f.stopTask(id, true)
	var evs []runlog.Event
	for _, m := range s.rest() {
		evs = append(evs, decodeAs[runlog.Event](t, m))
	}
	stopBeforeDone(t, evs)
	stopBeforeDone(t, runLogOf(t, runs))
}

// A served shutdown during a motion: the stop tool's call is in the run log
// of the task that was running, before its done.
func TestServeShutdownStopOnTheTaskRecord(t *testing.T) {
	runs := t.TempDir()
	spec, started := driveSpec(t, runs)
	f := startSpec(t, spec, driveTurns, Config{})
	f.submit("Drive on")
	waitFile(t, started)
	f.cancel()
	select {
	case err := <-f.served:
		f.served <- err // for the cleanup
	case <-time.After(testtime.Scale(10 * time.Second)):
		t.Fatal("the server did not shut down")
	}
	stopBeforeDone(t, runLogOf(t, runs))
}

// runLogOf reads the one task's events.jsonl under runs.
func runLogOf(t *testing.T, runs string) []runlog.Event {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(runs, "*", "events.jsonl"))
	if err != nil || len(paths) != 1 {
		t.Fatalf("run logs %v (%v), want one", paths, err)
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
