package cli_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/cmd/thea/cli"
	"github.com/thea-harness/thea/runlog"
)

// syncBuffer is an output a test reads while the command writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func waitOutput(t *testing.T, b *syncBuffer, want string) {
	t.Helper()
	for deadline := time.Now().Add(ptyDeadline); !strings.Contains(b.String(), want); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in the output:\n%s", want, b.String())
		}
	}
}

// With instructions as arguments, an interrupt (the App's signal channel)
// stops the running task safely, no further instruction runs, and the exit
// code is 1; the plain trace, not the live view, goes to a non-terminal.
func TestBatchInterrupt(t *testing.T) {
	dir := ptyRobot(t)
	sigs := make(chan os.Signal, 1)
	var out, errb syncBuffer
	a := cli.NewApp(strings.NewReader(""), &out, &errb)
	a.Signals = sigs
	code := make(chan int, 1)
	runs := t.TempDir()
	go func() {
		code <- a.Run(t.Context(), []string{"run", "--spec", filepath.Join(dir, "spec.cue"), "--run-log", runs,
			"pick a colour", "move slowly", "never run"})
	}()
	// Task 1's question is answered from the App's stdin: none, so it fails.
	waitOutput(t, &out, "→ move_base")
	// The model's line comes before the call runs: interrupt the motion
	// itself, once the back-end says it started.
	waitForFile(t, filepath.Join(dir, "backend.log"), "motion started")
	sigs <- os.Interrupt
	select {
	case c := <-code:
		if c != 1 {
			t.Fatalf("exit %d, want 1\n%s\n%s", c, out.String(), errb.String())
		}
	case <-time.After(ptyDeadline):
		t.Fatal("the interrupted run did not end")
	}
	if !strings.Contains(errb.String(), "stopping the task (Ctrl-C)") || !strings.Contains(out.String(), "── done: cancelled") {
		t.Errorf("the task was not stopped:\n%s\n%s", out.String(), errb.String())
	}
	if strings.Contains(out.String(), "never run") || strings.Contains(out.String(), "\x1b") {
		t.Errorf("a later instruction ran, or the live view reached a non-terminal:\n%s", out.String())
	}
	waitForFile(t, filepath.Join(dir, "backend.log"), "stop request: stopping 1 motion(s)")
	stopInRunLog(t, runs, "move slowly")
}

// stopInRunLog checks that the run log of the task given instruction holds
// the stop tool's call (its outcome and duration) before its done.
func stopInRunLog(t *testing.T, runs, instruction string) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(runs, "*", "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var evs []runlog.Event
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			var ev runlog.Event
			if err := json.Unmarshal([]byte(line), &ev); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			evs = append(evs, ev)
		}
		if evs[0].Text != instruction {
			continue
		}
		for _, ev := range evs {
			switch {
			case ev.Kind == runlog.EventDone:
				t.Fatalf("%s: done before any stop event", p)
			case ev.Kind == runlog.EventSafety && ev.Safety == "stop":
				if ev.Stop == nil || ev.Stop.Via != runlog.StopViaTool || ev.Stop.DurationMS <= 0 || ev.Result == nil {
					t.Fatalf("%s: stop event %+v", p, ev)
				}
				return
			}
		}
		t.Fatalf("%s: no done", p)
	}
	t.Fatalf("no run log of %q in %v", instruction, paths)
}

// --json prints the raw event stream: one JSON event per line, each task
// ending with exactly one done event.
func TestRunJSON(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bot")
	if code, _, errs := run(t, "init", "bot", "--body", "fixed", "--dir", dir); code != 0 {
		t.Fatal(errs)
	}
	code, out, errs := run(t, "run", "--spec", filepath.Join(dir, "spec.cue"), "--run-log", t.TempDir(), "--json", "Look to the left")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var kinds []runlog.EventKind
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var ev runlog.Event
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("not a JSON event: %q: %v", sc.Text(), err)
		}
		kinds = append(kinds, ev.Kind)
	}
	if len(kinds) < 3 || kinds[0] != runlog.EventTaskStart || kinds[len(kinds)-1] != runlog.EventDone {
		t.Fatalf("event kinds %v", kinds)
	}
}

// Without arguments and without a terminal, instructions are read one per
// line (commands too) until the end of input; the session then leaves.
func TestInteractivePiped(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bot")
	if code, _, errs := run(t, "init", "bot", "--body", "arm", "--dir", dir); code != 0 {
		t.Fatal(errs)
	}
	var out, errb bytes.Buffer
	in := "Move the gripper above the cube\n"
	code := cli.Execute(t.Context(), strings.NewReader(in), &out, &errb, []string{"run", "--spec", filepath.Join(dir, "spec.cue"), "--run-log", t.TempDir()})
	if code != 0 || !strings.Contains(out.String(), "── done: final_answer") {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	if !strings.Contains(errb.String(), "thea> ") {
		t.Errorf("no prompt on the terminal side: %q", errb.String())
	}
}

// Every command but run is cancelled by the first interrupt.
func TestInterruptCancelsOtherCommands(t *testing.T) {
	sigs := make(chan os.Signal, 1)
	pr, pw := io.Pipe()
	t.Cleanup(func() { _ = pw.Close() })
	a := cli.NewApp(pr, io.Discard, io.Discard)
	a.Signals = sigs
	code := make(chan int, 1)
	go func() {
		code <- a.Run(t.Context(), []string{"sim", "serve", "--world", "../../../examples/household/world.yaml"})
	}()
	sigs <- os.Interrupt
	select {
	case <-code:
	case <-time.After(ptyDeadline):
		t.Fatal("sim serve did not end on an interrupt")
	}
}
