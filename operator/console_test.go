package operator

import (
	"bytes"
	"context"
	"io"
	"iter"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/channels"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
)

// fakeSession runs each task until its context ends (a stop) or the test
// finishes it, and counts resets and clears.
type fakeSession struct {
	mu       sync.Mutex
	started  []string
	resets   int
	clears   int
	running  chan struct{} // receives once per started task
	finished chan struct{} // a send ends the running task with a final answer
}

func newFakeSession() *fakeSession {
	return &fakeSession{running: make(chan struct{}, 8), finished: make(chan struct{})}
}

func (f *fakeSession) RunStream(ctx context.Context, instruction string, _ ...engine.RunOption) iter.Seq[runlog.Event] {
	return func(yield func(runlog.Event) bool) {
		f.mu.Lock()
		f.started = append(f.started, instruction)
		f.mu.Unlock()
		f.running <- struct{}{}
		reason := runlog.DoneFinal
		select {
		case <-ctx.Done():
			reason = runlog.DoneCancelled
		case <-f.finished:
		}
		yield(runlog.Event{Kind: runlog.EventDone, Done: &runlog.Report{Reason: reason}})
	}
}

func (f *fakeSession) ResetSession() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.resets++
	return nil
}

func (f *fakeSession) ClearUncertain() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.clears++
	return 2
}

// recordingView keeps the events it was shown.
type recordingView struct {
	mu     sync.Mutex
	events []runlog.Event
}

func (v *recordingView) Write(ev runlog.Event) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.events = append(v.events, ev)
	return nil
}
func (*recordingView) Close() error         { return nil }
func (*recordingView) Tick(time.Time) error { return nil }
func (*recordingView) Clear()               {}

// lockedBuffer is the terminal's output, read while the console writes it;
// wrote receives after each write.
type lockedBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	wrote chan struct{}
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case l.wrote <- struct{}{}:
	default: // a wake-up is already pending
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// console is a Console over a fake session, typed into through in.
func console(t *testing.T) (*Console, *fakeSession, *io.PipeWriter, *lockedBuffer) {
	t.Helper()
	r, w := io.Pipe()
	t.Cleanup(func() { _ = w.Close() })
	out := &lockedBuffer{wrote: make(chan struct{}, 1)}
	s := newFakeSession()
	return &Console{Session: s, Terminal: channels.NewTerminal(r, out), View: &recordingView{}}, s, w, out
}

func typeLine(t *testing.T, w io.Writer, line string) {
	t.Helper()
	if _, err := io.WriteString(w, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// waitFor waits until the terminal shows want.
func waitFor(t *testing.T, out *lockedBuffer, want string) {
	t.Helper()
	deadline := time.After(testtime.Scale(5 * time.Second))
	for !strings.Contains(out.String(), want) {
		select {
		case <-out.wrote:
		case <-deadline:
			t.Fatalf("the terminal never showed %q:\n%s", want, out.String())
		}
	}
}

// interactive runs c's interactive session until the returned quit types
// /quit, which must make it leave.
func interactive(t *testing.T, c *Console, in io.Writer) (quit func()) {
	t.Helper()
	left := make(chan struct{})
	go func() {
		defer close(left)
		c.Interactive(t.Context())
	}()
	return func() {
		t.Helper()
		typeLine(t, in, "/quit")
		select {
		case <-left:
		case <-time.After(testtime.Scale(5 * time.Second)):
			t.Fatal("/quit did not leave")
		}
	}
}

// The idle commands answer without starting a task; an instruction starts
// one, whose commands stop it; /quit leaves.
func TestInteractiveCommands(t *testing.T) {
	c, s, in, out := console(t)
	quit := interactive(t, c, in)
	waitFor(t, out, "thea> ")
	steps := []struct{ line, want string }{
		{"/reset", "session reset: Accumulated context cleared"},
		{"/clear", "cleared the uncertain state of 2 toolset(s)"},
		{"/stop", "no task is running"},
		{"/nope", "unknown command /nope"},
		{"/help", "/replan TEXT"},
	}
	for _, st := range steps {
		typeLine(t, in, st.line)
		waitFor(t, out, st.want)
	}
	typeLine(t, in, "  go to the kitchen  ")
	<-s.running
	for _, st := range []struct{ line, want string }{
		{"/reset", "/reset: only when no task runs"},
		{"look around", "a task is running; typed lines are commands now"},
		{"/replan", "usage: /replan TEXT"},
		{"/replan go to the hall", "revision queued"},
		{"/stop", "stopping the task"},
	} {
		typeLine(t, in, st.line)
		waitFor(t, out, st.want)
	}
	waitFor(t, out, "task ended: cancelled")
	quit()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.started) != 1 || s.started[0] != "go to the kitchen" || s.resets != 1 || s.clears != 1 {
		t.Errorf("started %q, %d resets, %d clears; want one trimmed task, one reset, one clear", s.started, s.resets, s.clears)
	}
}

// A revision typed while a task runs is handed to the engine once.
func TestRevisionPolledOnce(t *testing.T) {
	tk := &task{}
	if _, ok := tk.poll(); ok {
		t.Fatal("a revision before any was typed")
	}
	tk.revise("go to the hall")
	if text, ok := tk.poll(); !ok || text != "go to the hall" {
		t.Fatalf("poll = %q, %v", text, ok)
	}
	if _, ok := tk.poll(); ok {
		t.Fatal("the same revision handed over twice")
	}
}

// Ctrl-C during a batch stops the running task and runs no further
// instruction.
func TestBatchInterrupt(t *testing.T) {
	c, s, _, out := console(t)
	sigs := make(chan os.Signal, 1)
	c.Signals = sigs
	ok := make(chan bool, 1)
	go func() { ok <- c.Batch(t.Context(), []string{"first", "never run"}) }()
	<-s.running
	sigs <- os.Interrupt
	select {
	case got := <-ok:
		if got {
			t.Error("an interrupted batch reported success")
		}
	case <-time.After(testtime.Scale(5 * time.Second)):
		t.Fatal("the interrupted batch did not end")
	}
	waitFor(t, out, "stopping the task (Ctrl-C)")
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.started) != 1 {
		t.Errorf("started %q, want only the first", s.started)
	}
}

// A batch whose tasks all end with a final answer succeeds.
func TestBatchAllFinal(t *testing.T) {
	c, s, _, _ := console(t)
	ok := make(chan bool, 1)
	go func() { ok <- c.Batch(t.Context(), []string{"one", "two"}) }()
	for range 2 {
		<-s.running
		s.finished <- struct{}{}
	}
	if !<-ok {
		t.Error("a batch of final answers reported failure")
	}
}

func TestSplitCommand(t *testing.T) {
	for _, tc := range []struct{ in, cmd, arg string }{
		{"/replan  go to the kitchen ", "/replan", "go to the kitchen"},
		{"/stop", "/stop", ""},
		{"  bring the mug ", "bring the mug", ""},
		{"", "", ""},
	} {
		if cmd, arg := splitCommand(tc.in); cmd != tc.cmd || arg != tc.arg {
			t.Errorf("splitCommand(%q) = %q, %q; want %q, %q", tc.in, cmd, arg, tc.cmd, tc.arg)
		}
	}
}
