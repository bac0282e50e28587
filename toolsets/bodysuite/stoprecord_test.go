package bodysuite_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/channels"
	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/models/script"
	"github.com/thea-harness/thea/policies"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/stages"
	"github.com/thea-harness/thea/toolsets"
)

// stopSpecYAML is a session whose base back-end is a fault server: %[1]s
// the toolset's section, %[2]s the fault directory, %[3]s the stop_grace,
// %[4]s move_base's contract, %[5]s the contracts of tools the session
// offers none of.
const stopSpecYAML = `name: stoprec
model: {provider: script, script: turns.yaml}
embodiment:
  name: stoprec-base
  cameras: []
  frames: []
  limits: {min_clearance_m: 0.05, safety_margin_m: 0.05}
  lock: {dir: %[2]q}
loop: {stages: [task_notes, compact]}
toolsets:
  base:
%[1]s    stop_grace: %[3]s
tools:
  move_base: %[4]s
%[5]s
run_log: {enabled: true, dir: runs}
user: {channel: none}
memory: {consolidation: {enabled: false}}
scene_graph: {enabled: false}
`

// stopSession is a whole session over the fault server, writing a run log.
type stopSession struct {
	h      *engine.Harness
	faults string
}

// newStopSession builds the session over tr's fault server; stop is its
// stop path ("ok" or "hang") and stopTimeout that path's bound, grace the
// stop_grace, move the move_base contract, turns the script.
func newStopSession(t *testing.T, tr transport, stop, stopTimeout, grace, move, turns string) *stopSession {
	t.Helper()
	fb := newFaultBackend(t, tr, stop, stopTimeout)
	spec := fb.write(t, fmt.Sprintf(stopSpecYAML, fb.section, fb.faults, grace, move, fb.contracts), turns)
	h := sessionOver(t, tr, spec, script.Provider())
	return &stopSession{h: h, faults: fb.faults}
}

// faultBackend is a test directory for a session over a transport's fault
// server: the server's fault directory in it (its servers reaped when the
// test ends), the toolset's section and the contracts hiding the tools the
// session offers none of.
type faultBackend struct {
	dir, faults, section, contracts string
}

// newFaultBackend makes the directory of a session over tr's fault server,
// stop its stop path ("ok" or "hang") and stopTimeout that path's bound;
// hide names more tools to hide.
func newFaultBackend(t *testing.T, tr transport, stop, stopTimeout string, hide ...string) faultBackend {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	faults := filepath.Join(dir, "faults")
	if err := os.Mkdir(faults, 0o700); err != nil {
		t.Fatal(err)
	}
	reapFaultServers(t, faults)
	section, hidden := tr.yaml(self, faults, stop, stopTimeout)
	var contracts strings.Builder
	for _, h := range append(hidden, hide...) {
		fmt.Fprintf(&contracts, "  %s: {hidden: true}\n", h)
	}
	return faultBackend{dir: dir, faults: faults, section: section, contracts: contracts.String()}
}

// write writes the spec and the script's turns into the directory and
// returns the spec's path.
func (fb faultBackend) write(t *testing.T, spec, turns string) string {
	t.Helper()
	path := filepath.Join(fb.dir, "spec.yaml")
	write(t, path, spec)
	write(t, filepath.Join(fb.dir, "turns.yaml"), turns)
	return path
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

// sessionOver builds the session of the spec file over a catalog of the
// transport under test, with the model provider prov (the script one, or a
// test's wrapper of it); wire may add to the session's options.
func sessionOver(t *testing.T, tr transport, spec string, prov engine.ProviderKind, wire ...func(*engine.Options)) *engine.Harness {
	t.Helper()
	cat := engine.NewComponents()
	cat.SetBody(body.NewLayer(body.Shared{}))
	for _, err := range []error{
		cat.Add(stages.Components()...),
		cat.Add(toolsets.BuiltinKind(), tr.kind(), prov, channels.NoneChannel()),
		cat.Add(policies.Components()...),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	loaded, diags := schema.Load([]string{spec}, schema.LoadOptions{Descriptors: cat.Descriptors()})
	if loaded == nil {
		t.Fatalf("spec: %v", diags)
	}
	// This build's session wiring over a catalog of the transport under test.
	opts, err := components.Session(components.Options{})
	if err != nil {
		t.Fatal(err)
	}
	opts.Components = cat
	for _, w := range wire {
		w(&opts)
	}
	h, err := engine.New(t.Context(), loaded, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return h
}

// runInterrupted runs a task that drives, cancels its context once the
// motion runs on the server (Ctrl-C in thea run, an interrupt over HTTP),
// and returns the task's run log.
func (s *stopSession) runInterrupted(t *testing.T) []runlog.Event {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	reports := make(chan runlog.Report, 1)
	go func() {
		rep, _ := s.h.Run(ctx, "drive")
		reports <- rep
	}()
	s.waitFault(t, "start")
	cancel()
	var rep runlog.Report
	select {
	case rep = <-reports:
	case <-time.After(testtime.Scale(10 * time.Second)):
		t.Fatal("the interrupted task did not end")
	}
	if rep.Reason != runlog.DoneCancelled {
		t.Fatalf("report: %+v", rep)
	}
	return readRunLog(t, rep.RunDir)
}

// waitFault waits for a line of the fault server's log.
func (s *stopSession) waitFault(t *testing.T, prefix string) {
	t.Helper()
	testtime.Wait(t, "the fault server logging "+prefix, func() bool { return logLines(t, s.faults, prefix) > 0 })
}

func readRunLog(t *testing.T, runDir string) []runlog.Event {
	t.Helper()
	fh, err := os.Open(filepath.Join(runDir, "events.jsonl"))
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
			t.Fatalf("events.jsonl: %v: %s", err, sc.Text())
		}
		evs = append(evs, ev)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return evs
}

// safetyBeforeDone returns the run log's first safety event of kind, failing
// unless it belongs to the task and comes before its one done, which is last.
func safetyBeforeDone(t *testing.T, evs []runlog.Event, kind string) runlog.Event {
	t.Helper()
	var kinds []string
	for _, ev := range evs {
		kinds = append(kinds, string(ev.Kind)+"/"+string(ev.Safety))
	}
	if len(evs) == 0 || evs[len(evs)-1].Kind != runlog.EventDone {
		t.Fatalf("the run log does not end with done: %v", kinds)
	}
	for _, ev := range evs[:len(evs)-1] {
		if ev.Kind == runlog.EventSafety && string(ev.Safety) == kind {
			if ev.Task != evs[0].Task {
				t.Fatalf("%s event of task %d in the log of task %d", kind, ev.Task, evs[0].Task)
			}
			return ev
		}
	}
	t.Fatalf("no %s event before done in the task's run log: %v", kind, kinds)
	return runlog.Event{}
}

// Ctrl-C during a motion: the kind's stop (a stop tool's call), its outcome and how long it
// took are events of the interrupted task, before its done; so is the
// motion's late reply.
func TestStopToolOnTheTaskRecord(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		s := newStopSession(t, tr, "ok", "5s", "5s", "{physical: true}", "- tool_calls: [{name: move_base, arguments: {ms: 60000}}]\n- text: Stopped.\n")
		evs := s.runInterrupted(t)
		stop := safetyBeforeDone(t, evs, body.SafetyStop)
		via, tool, name := tr.stopRecord("ok")
		if st := stop.Stop; st == nil || st.Via != via || st.Tool != tool || !st.OK ||
			st.DurationMS <= 0 || st.Why != "move_base was cancelled" {
			t.Fatalf("stop call: %+v", stop.Stop)
		}
		if stop.Tool != "move_base" || stop.Result == nil || !stop.Result.Success ||
			via == runlog.StopViaTool && stop.Result.Value["stopped"] != true {
			t.Fatalf("stop event: %+v", stop)
		}
		if !strings.Contains(stop.Text, name+" called because move_base was cancelled: it answered success in ") {
			t.Errorf("stop text: %q", stop.Text)
		}
		late := safetyBeforeDone(t, evs, body.SafetyLateReply)
		if late.Result == nil || !tr.stopped(*late.Result) {
			t.Errorf("late reply: %+v", late)
		}
	})
}

// A stop that hangs: its failure after its timeout, then the kill after
// stop_grace, each with its duration, are events of the task, before done.
func TestStopKillOnTheTaskRecord(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		s := newStopSession(t, tr, "hang", "100ms", "100ms", "{physical: true}", "- tool_calls: [{name: move_base, arguments: {ms: 60000}}]\n- text: Stopped.\n")
		evs := s.runInterrupted(t)
		stop := safetyBeforeDone(t, evs, body.SafetyStop)
		via, tool, _ := tr.stopRecord("hang")
		if st := stop.Stop; st == nil || st.Via != via || st.Tool != tool || st.OK || st.DurationMS < 100 {
			t.Fatalf("stop call: %+v", stop.Stop)
		}
		if stop.Result == nil || stop.Result.Success || !strings.Contains(stop.Result.Reason, tr.stopFailed("hang")) {
			t.Fatalf("stop outcome: %+v", stop.Result)
		}
		kill := safetyBeforeDone(t, evs, body.SafetyKilled)
		if st := kill.Stop; st == nil || st.Via != runlog.StopViaKill || !st.OK || st.DurationMS <= 0 || st.Why != "move_base was cancelled" {
			t.Fatalf("kill: %+v", kill.Stop)
		}
		if kill.Tool != "move_base" || !strings.Contains(kill.Text, "did not answer within stop_grace 100ms") {
			t.Errorf("kill event: %+v", kill)
		}
	})
}

// A motion that times out and a model that then ends the task at once: the
// task's done waits for the stop path, whose events are the task's.
func TestStopAfterTimeoutBeforeFinalAnswer(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		s := newStopSession(t, tr, "ok", "5s", "5s", fmt.Sprintf("{physical: true, timeout: %s}", testtime.Scale(100*time.Millisecond)),
			"- tool_calls: [{name: move_base, arguments: {ms: 60000}}]\n- text: Gave up.\n")
		rep, err := s.h.Run(t.Context(), "drive")
		if err != nil || rep.Reason != runlog.DoneFinal {
			t.Fatalf("report %+v, %v", rep, err)
		}
		evs := readRunLog(t, rep.RunDir)
		if st := safetyBeforeDone(t, evs, body.SafetyStop).Stop; st == nil || st.Why != "move_base timed out" || !st.OK {
			t.Fatalf("stop call: %+v", st)
		}
		// The motion ended before done: stopped (its late reply), or killed
		// if the stop reached the server before the motion did.
		if !slices.ContainsFunc(evs, func(ev runlog.Event) bool {
			return ev.Safety == runlog.SafetyLateReply || ev.Safety == body.SafetyKilled
		}) {
			t.Fatal("the motion's end is not in the task's run log")
		}
	})
}

// The session closing under a motion (a served shutdown's last step): the
// stop tool's call and the kill of the back-end are the task's events.
func TestStopOnCloseOnTheTaskRecord(t *testing.T) {
	eachTransport(t, func(t *testing.T, tr transport) {
		s := newStopSession(t, tr, "ok", "5s", "5s", "{physical: true}", "- tool_calls: [{name: move_base, arguments: {ms: 60000}}]\n- text: Stopped.\n")
		reports := make(chan runlog.Report, 1)
		go func() {
			rep, _ := s.h.Run(t.Context(), "drive")
			reports <- rep
		}()
		s.waitFault(t, "start")
		if err := s.h.Close(); err != nil {
			t.Fatal(err)
		}
		var rep runlog.Report
		select {
		case rep = <-reports:
		case <-time.After(testtime.Scale(10 * time.Second)):
			t.Fatal("the task did not end after Close")
		}
		evs := readRunLog(t, rep.RunDir)
		if st := safetyBeforeDone(t, evs, body.SafetyStop).Stop; st == nil || st.Why != "the session closed" || !st.OK {
			t.Fatalf("stop call: %+v", st)
		}
		if st := safetyBeforeDone(t, evs, body.SafetyKilled).Stop; st == nil || st.Via != runlog.StopViaKill || st.Why != "the session closed" {
			t.Fatalf("kill: %+v", st)
		}
		if logLines(t, s.faults, "stop") != 1 {
			t.Errorf("the stop tool ran %d times, want once", logLines(t, s.faults, "stop"))
		}
	})
}
