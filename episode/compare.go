package episode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/thea-harness/thea/models/replay"
	"github.com/thea-harness/thea/runlog"
)

// Step is one event of a run that the harness, not the model, produced and
// that the model is then sent or that decides the outcome: an observation,
// the Scene Graph Brief and a call's effects on it, a call as it leaves the
// pre-hooks, a hook's decision, a tool result, an evaluator verdict, how the
// task ended. Times, ids of the run and the model's own
// text are left out: they are what a replay feeds back or cannot match.
type Step struct {
	Turn int
	Kind runlog.EventKind
	Tool string
	// JSON is the step's compared content, indented with sorted keys.
	JSON string
	// Value is the same content decoded, as compared.
	Value any
}

// project picks an event's compared fields; false for an event not compared.
func project(kind runlog.EventKind, raw []byte) (Step, bool, error) {
	var fields []string
	switch kind {
	case runlog.EventToolCall:
		fields = []string{"tool", "args"}
	case runlog.EventHook:
		fields = []string{"tool", "hook"}
	case runlog.EventToolResult:
		// text is the harness's word to the model beside the result (a
		// hook's rewrite, refused extra calls): what the model reads.
		fields = []string{"tool", "result", "text"}
	case runlog.EventEvaluation:
		fields = []string{"tool", "verdict"}
	case runlog.EventObservation:
		fields = []string{"tool", "observation"}
	case runlog.EventScene:
		fields = []string{"tool", "text"}
	case runlog.EventDone:
		fields = []string{"done"}
	default:
		return Step{}, false, nil
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return Step{}, false, fmt.Errorf("decoding a %s event: %w", kind, err)
	}
	out := map[string]any{}
	for _, f := range fields {
		if v, ok := m[f]; ok {
			out[f] = v
		}
	}
	if h, ok := out["hook"].(map[string]any); ok {
		// A confirmation is the person's answer, which a replay feeds back
		// (and who gave it and when are the run's); the hook's decision
		// and reason are the harness's.
		delete(h, "confirmation")
	}
	if d, ok := out["done"].(map[string]any); ok {
		// The report's text is the model's; its run dir and usage are the
		// run's. How the task ended is the harness's.
		out["done"] = map[string]any{"reason": d["reason"]}
	}
	// Not HTML-escaped: a diff shows "<nil>" and "a && b" as the harness
	// wrote them, not as \u003cnil\u003e.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return Step{}, false, fmt.Errorf("encoding a %s event: %w", kind, err)
	}
	b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	turn, _ := m["turn"].(float64)
	tool, _ := m["tool"].(string)
	return Step{Turn: int(turn), Kind: kind, Tool: tool, JSON: string(b), Value: out}, true, nil
}

// Steps are an episode's compared events, in order.
func Steps(ep *replay.Episode) ([]Step, error) {
	var steps []Step
	for _, l := range ep.Events {
		s, ok, err := project(l.Kind, l.Raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ep.Path, err)
		}
		if ok {
			steps = append(steps, s)
		}
	}
	return steps, nil
}

// Divergence is the first place a replay differs from its recording.
type Divergence struct {
	// Index counts compared steps from 0.
	Index int    `json:"index"`
	Turn  int    `json:"turn"`
	Kind  string `json:"kind"`
	Tool  string `json:"tool,omitempty"`
	// Want is the recorded step, Got the replay's ("" when missing).
	Want string `json:"want,omitempty"`
	Got  string `json:"got,omitempty"`
	Diff string `json:"diff"`
	// Note explains a divergence that is not a differing step (the replay
	// ended early, or ran past the recording).
	Note string `json:"note,omitempty"`
	// Field is the first differing field, recorded and now, and the
	// tolerance the spec gives it (nil when the steps differ in kind).
	Field *Mismatch `json:"field,omitempty"`
}

// String is the divergence as `thea test` prints it.
func (d *Divergence) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "diverged at turn %d, %s", d.Turn, d.Kind)
	if d.Tool != "" {
		fmt.Fprintf(&b, " %s", d.Tool)
	}
	fmt.Fprintf(&b, " (step %d)", d.Index+1)
	if d.Note != "" {
		fmt.Fprintf(&b, ": %s", d.Note)
	}
	if d.Field != nil {
		fmt.Fprintf(&b, "\n  %s\n ", d.Field)
	}
	b.WriteString(" (- recorded, + replay)\n")
	b.WriteString(d.Diff)
	return b.String()
}

// Comparator checks a replay's events against the recorded steps as they
// are emitted and keeps the first divergence. It is safe for concurrent use
// (Diverged is polled by the run's should-cancel check).
type Comparator struct {
	mu   sync.Mutex
	cmp  Matching
	want []Step
	next int
	div  *Divergence
	err  error
}

// NewComparator compares against the recorded steps exactly, as this
// Thea records them.
func NewComparator(want []Step) *Comparator {
	return NewComparatorWith(want, Matching{Format: runlog.Format})
}

// NewComparatorWith compares against the recorded steps as cmp says.
func NewComparatorWith(want []Step, cmp Matching) *Comparator {
	return &Comparator{want: want, cmp: cmp}
}

// Observe compares one replayed event.
func (c *Comparator) Observe(ev runlog.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.div != nil || c.err != nil {
		return
	}
	raw, err := json.Marshal(ev)
	if err != nil {
		c.err = fmt.Errorf("encoding a replayed %s event: %w", ev.Kind, err)
		return
	}
	got, ok, err := project(ev.Kind, raw)
	if err != nil {
		c.err = err
		return
	}
	if !ok {
		return
	}
	idx := c.next
	c.next++
	if idx >= len(c.want) {
		c.div = &Divergence{Index: idx, Turn: got.Turn, Kind: string(got.Kind), Tool: got.Tool, Got: got.JSON,
			Note: "the replay went on past the end of the recording", Diff: LineDiff("", got.JSON)}
		return
	}
	want := c.want[idx]
	var field *Mismatch
	if want.Kind == got.Kind {
		if field = c.cmp.match(want, got); field == nil {
			return
		}
	}
	d := &Divergence{Index: idx, Turn: want.Turn, Kind: string(want.Kind), Tool: want.Tool, Want: want.JSON, Got: got.JSON, Field: field}
	if want.Kind != got.Kind {
		d.Note = fmt.Sprintf("recorded a %s event, the replay produced a %s event", want.Kind, got.Kind)
		d.Diff = LineDiff(string(want.Kind)+" "+want.JSON, string(got.Kind)+" "+got.JSON)
	} else {
		d.Diff = LineDiff(want.JSON, got.JSON)
	}
	c.div = d
}

// Finish reports recorded steps the replay never reached (call it after the
// run's last event).
func (c *Comparator) Finish() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.div != nil || c.err != nil || c.next >= len(c.want) {
		return
	}
	w := c.want[c.next]
	c.div = &Divergence{Index: c.next, Turn: w.Turn, Kind: string(w.Kind), Tool: w.Tool, Want: w.JSON,
		Note: "the replay ended before this recorded step", Diff: LineDiff(w.JSON, "")}
}

// Remaining is how many recorded steps the replay has not yet produced.
func (c *Comparator) Remaining() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.want) - c.next
}

// stoppedRecording reports whether the recorded task ended cancelled: its
// last step is a done event with reason cancelled.
func stoppedRecording(steps []Step) bool {
	if len(steps) == 0 {
		return false
	}
	last := steps[len(steps)-1]
	if last.Kind != runlog.EventDone {
		return false
	}
	var d struct {
		Done struct {
			Reason runlog.DoneReason `json:"reason"`
		} `json:"done"`
	}
	return json.Unmarshal([]byte(last.JSON), &d) == nil && d.Done.Reason == runlog.DoneCancelled
}

// Diverged reports whether a divergence was found (or comparing failed).
func (c *Comparator) Diverged() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.div != nil || c.err != nil
}

// Result is the first divergence (nil when none) and any error comparing.
func (c *Comparator) Result() (*Divergence, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.div, c.err
}
