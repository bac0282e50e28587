package cli_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/readfile"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/internal/testutil"
	"github.com/thea-harness/thea/runlog"
)

// The resume chaos test: thea run drives the household task on the
// simulator (a process of its own) and is killed with SIGKILL at event k —
// THEA_TEST_KILL_AT_EVENT=k makes it kill itself right after its run log
// wrote its k-th event, a test-only hook — then `thea run --resume` must
// finish the task with no motion run twice, tell the model what happened
// in its first request, and run under the spec's safety rules.
//
// Every event of the task is a kill point (the done-when). While
// iterating, THEA_TEST_RESUME_SAMPLE=1 takes a sample instead: every
// tool_call and evaluation event (a call in flight, a call run but not
// recorded) and every fifth event besides. Cases run in a small pool.

const (
	killEnv       = "THEA_TEST_KILL_AT_EVENT"
	resumeSample  = "THEA_TEST_RESUME_SAMPLE"
	mugTask       = "Put the mug in the top drawer"
	resumePool    = 3
	physicalTools = "navigate_to move_base rotate pick_up place open_drawer close_drawer"
)

// resumeCase is one copy of the household example wired to its own
// simulator and policy model.
type resumeCase struct {
	dir, spec, callLog string
	model              *policyModel
}

func newResumeCase(t *testing.T) *resumeCase {
	t.Helper()
	spec := testutil.ExampleCopy(t, "../../../examples/household/spec.cue")
	dir := filepath.Dir(spec)
	url, callLog := startSimHTTP(t, dir)
	model, murl := newPolicyModel(t, callLog)
	b, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, r := range [][2]string{
		{`provider: "script"
	script:   "episode.yaml"`, fmt.Sprintf(`provider: "openai"
	name:     "resume-policy"
	base_url: %q`, murl+"/v1")},
		{`command: ["thea", "sim", "serve", "--world", "world.yaml", "--seed", "7"]`, fmt.Sprintf("url: %q", url)},
		// Consolidation is a model call at task end this policy does not
		// answer; memory is not what is tested here.
		{`consolidation: {enabled: true, threshold: 0.7}`, `consolidation: {enabled: false, threshold: 0.7}`},
	} {
		if !strings.Contains(s, r[0]) {
			t.Fatalf("the household spec no longer holds %q", r[0])
		}
		s = strings.Replace(s, r[0], r[1], 1)
	}
	if err := os.WriteFile(spec, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return &resumeCase{dir: dir, spec: spec, callLog: callLog, model: model}
}

// thea runs this binary as thea in the case's folder; killed reports a
// SIGKILL.
func (c *resumeCase) thea(t *testing.T, env []string, args ...string) (out string, code int, killed bool) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A bound on a hang only: a thea that never ends fails its case
	// instead of the whole package's timeout.
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(30*time.Second))
	defer cancel()
	cmd := exec.CommandContext(ctx, self, args...)
	cmd.Dir = c.dir
	cmd.Env = append(append(os.Environ(), ptyMainEnv+"=1", killEnv+"="), env...)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("thea %v did not end within %v\n%s", args, testtime.Scale(30*time.Second), buf.String())
	case err == nil:
		return buf.String(), 0, false
	case errors.As(err, &ee):
		ws, _ := ee.Sys().(syscall.WaitStatus)
		return buf.String(), ee.ExitCode(), ws.Signaled() && ws.Signal() == syscall.SIGKILL
	}
	t.Fatalf("thea %v: %v\n%s", args, err, buf.String())
	return "", 0, false
}

// runDir is the case's one run directory.
func (c *resumeCase) runDir(t *testing.T) string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(c.dir, ".thea", "runs", "*"))
	if err != nil || len(dirs) != 1 {
		t.Fatalf("run directories: %v (%v), want one", dirs, err)
	}
	return dirs[0]
}

func readLines(t *testing.T, dir string) []runlog.Line {
	t.Helper()
	var out []runlog.Line
	for rec, err := range runlog.ReadDir(context.Background(), dir, readfile.RunLog) {
		if err != nil {
			t.Fatal(err)
		}
		l, err := rec.Line()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, l)
	}
	return out
}

// chaosFront is how a chaos case drives thea: as thea run or thea serve.
// The kill points, the kill and the checks are the same for both.
type chaosFront struct {
	// reference runs the task uninterrupted.
	reference func(t *testing.T, c *resumeCase)
	// kill runs the task until the process is SIGKILLed at event k.
	kill func(t *testing.T, c *resumeCase, k int)
	// resume continues the task of dir to its end.
	resume func(t *testing.T, c *resumeCase, dir string)
	// resumeArgs are the arguments that resume dir, for the case where
	// there is nothing to resume and thea must say so and exit.
	resumeArgs func(dir string) []string
}

// runChaos kills thea at every event of the household task in turn (or at
// the sample), resumes it, and checks each outcome.
func runChaos(t *testing.T, front chaosFront) {
	// The reference run: the task's events, uninterrupted.
	ref := newResumeCase(t)
	front.reference(t, ref)
	events := readLines(t, ref.runDir(t))
	if last := events[len(events)-1]; last.Kind != runlog.EventDone || last.Done.Reason != runlog.DoneFinal {
		t.Fatalf("reference run ended with %+v", last)
	}
	var points []int
	every := os.Getenv(resumeSample) != "1"
	for i, ev := range events {
		if every || ev.Kind == runlog.EventToolCall || ev.Kind == runlog.EventEvaluation || i%5 == 0 {
			points = append(points, i+1)
		}
	}
	t.Logf("%d events in the task; killing at %d of them", len(events), len(points))
	sem := make(chan struct{}, resumePool)
	var wg sync.WaitGroup
	var inFlight atomic.Int32 // cases where a physical call was in flight
	for _, k := range points {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			t.Run("event"+strconv.Itoa(k), func(t *testing.T) {
				if checkKillResume(t, front, k, events[k-1].Kind) {
					inFlight.Add(1)
				}
			})
		}()
	}
	wg.Wait()
	// The kill points must include kills with a motion in flight.
	if inFlight.Load() == 0 && !t.Failed() {
		t.Error("no kill point left a physical call in flight")
	}
}

func TestResumeAfterKillAtEveryEvent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs thea twice per kill point")
	}
	run := []string{"run", "--spec", "spec.cue", mugTask}
	runChaos(t, chaosFront{
		reference: func(t *testing.T, c *resumeCase) {
			if out, code, _ := c.thea(t, nil, run...); code != 0 {
				t.Fatalf("reference run: exit %d\n%s", code, out)
			}
		},
		kill: func(t *testing.T, c *resumeCase, k int) {
			if out, code, killed := c.thea(t, []string{killEnv + "=" + strconv.Itoa(k)}, run...); !killed {
				t.Fatalf("kill at event %d: exit %d, not killed\n%s", k, code, out)
			}
		},
		resume: func(t *testing.T, c *resumeCase, dir string) {
			if out, code, _ := c.thea(t, nil, "run", "--spec", "spec.cue", "--resume", dir); code != 0 {
				t.Fatalf("resume: exit %d\n%s", code, out)
			}
		},
		resumeArgs: func(dir string) []string { return []string{"run", "--spec", "spec.cue", "--resume", dir} },
	})
}

// checkKillResume kills thea at event k, resumes it and checks the
// outcome; it reports whether a physical call was in flight.
func checkKillResume(t *testing.T, front chaosFront, k int, kind runlog.EventKind) bool {
	c := newResumeCase(t)
	front.kill(t, c, k)
	dir := c.runDir(t)
	lines := readLines(t, dir)
	if len(lines) != k {
		t.Fatalf("killed at event %d (%s), the run log holds %d events", k, kind, len(lines))
	}
	if lines[k-1].Kind == runlog.EventDone {
		// Killed after its last event: the task had ended, and resuming
		// it says so and changes nothing.
		out, code, _ := c.thea(t, nil, front.resumeArgs(dir)...)
		if code == 0 || !strings.Contains(out, "nothing to resume") {
			t.Fatalf("resuming an ended task: exit %d\n%s", code, out)
		}
		if after := readLines(t, dir); len(after) != k {
			t.Fatalf("resuming an ended task wrote %d events", len(after)-k)
		}
		return false
	}
	before := len(c.model.requests())
	front.resume(t, c, dir)
	return checkResumed(t, c, readLines(t, dir), before)
}

// checkResumed checks a resumed task: it finished, no physical call ran
// twice at the robot, the first request after the resume said what
// happened, and the spec's rules held. It reports whether a physical call
// was in flight.
func checkResumed(t *testing.T, c *resumeCase, lines []runlog.Line, before int) bool {
	t.Helper()
	last := lines[len(lines)-1]
	if last.Kind != runlog.EventDone || last.Done.Reason != runlog.DoneFinal {
		t.Fatalf("the resumed task ended with %s %+v", last.Kind, last.Done)
	}
	for _, s := range mugSteps {
		if !s.done(readSimCalls(t, c.callLog)) {
			t.Errorf("the task ended but the robot never did %s %v", s.tool, s.args)
		}
	}
	// No motion twice: each step succeeded once at the robot, every call
	// the robot ran has its own tool_call in the run log, and no call id
	// began twice.
	began, ids := map[string]int{}, map[string]bool{}
	resumed, mayHaveRun := -1, []string(nil)
	for i, l := range lines {
		switch {
		case l.Kind == runlog.EventToolCall:
			if ids[l.CallID] {
				t.Errorf("call %s began twice", l.CallID)
			}
			ids[l.CallID] = true
			began[l.Tool]++
		case l.Kind == runlog.EventSafety && l.Safety == runlog.SafetyResumed:
			resumed = i
		case l.Kind == runlog.EventSafety && l.Safety == runlog.SafetyMayHaveRun:
			mayHaveRun = append(mayHaveRun, l.Tool)
		}
	}
	ran := map[string]int{}
	for _, call := range readSimCalls(t, c.callLog) {
		if strings.Contains(physicalTools, call.Tool) {
			ran[call.Tool]++
		}
	}
	for tool, n := range ran {
		if n > began[tool] {
			t.Errorf("the robot ran %s %d times, the run log began it %d times", tool, n, began[tool])
		}
	}
	for _, s := range mugSteps {
		n := 0
		for _, call := range readSimCalls(t, c.callLog) {
			if s.done([]simCall{call}) {
				n++
			}
		}
		if n > 1 {
			t.Errorf("%s %v succeeded %d times at the robot", s.tool, s.args, n)
		}
	}
	if resumed < 0 {
		t.Fatal("no resumed event in the run log")
	}
	rec := lines[resumed].Text
	if !strings.Contains(rec, "spec unchanged") {
		t.Errorf("the resumed event does not say the spec is unchanged: %s", rec)
	}
	// The model is told in its first request after the resume.
	reqs := c.model.requests()[before:]
	if len(reqs) == 0 {
		t.Fatal("no request after the resume")
	}
	first := reqs[0]
	turn := lines[resumed].Turn
	for _, want := range []string{"Session resumed", fmt.Sprintf("ended unexpectedly after turn %d", turn), "unconfirmed until a fresh observation", "Observe first"} {
		if !strings.Contains(first, want) {
			t.Errorf("the first request after the resume lacks %q", want)
		}
	}
	for _, tool := range mayHaveRun {
		if !strings.Contains(first, "The call "+tool) || !strings.Contains(first, "may or may not have run") {
			t.Errorf("the first request does not say %s may have run", tool)
		}
	}
	// The spec's rules: every move_base the resumed process ran was
	// clamped by clamp_translation to the free space.
	for i, l := range lines[resumed:] {
		if l.Kind != runlog.EventToolCall || l.Tool != "move_base" {
			continue
		}
		clamped := false
		for _, h := range lines[resumed : resumed+i] {
			if h.Kind == runlog.EventHook && h.Hook != nil && h.Hook.Hook == "clamp_translation" {
				clamped = true
			}
		}
		if d, _ := l.Args["distance_m"].(float64); !clamped || d > 0.5 {
			t.Errorf("move_base after the resume ran with distance_m %v (clamped: %v)", l.Args["distance_m"], clamped)
		}
	}
	return len(mayHaveRun) > 0
}
