package report

import (
	"encoding/json"
	"fmt"
	"html/template"
	"path/filepath"
	"strings"
	"time"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/operator/trace"
	"github.com/thea-harness/thea/runlog"
)

// Page is what the template renders. Every string in it is untrusted text
// the template escapes; only image data URIs, built here from bytes that
// sniffed as images, are typed as safe URLs.
type Page struct {
	Instruction string
	RunDir      string
	Task        int
	Start       string
	Duration    string
	Turns       []*Turn
	Chart       *Chart
	Tokens      TokenUse
	Done        *runlog.Report
	// Outcome is the done reason's CSS class: ok (final answer) or fail.
	Outcome  string
	Problems []string
	// Session are events before the first turn and after the last one
	// (memory consolidation, sink errors).
	Session []Row
}

// Turn is one turn's section of the timeline.
type Turn struct {
	Number int
	Rows   []Row
	Images []ImageView
	Tokens *runlog.TokenCounts
	// Map is the world as the observations said it at the turn's end.
	Map *WorldMap
}

// Row is one line of a turn: an event, rendered.
type Row struct {
	Kind   string // observe, context, model, retry, hook, call, result, verdict, compaction, note, question, replan, cancel, memory, error
	Label  string
	Text   string
	Detail string // pretty JSON, shown folded
	Status string // ok | fail | warn | ""
}

// ImageView is one inline image.
type ImageView struct {
	Label         string
	URI           template.URL
	Width, Height int
}

// TokenUse sums the context sizes the harness measured before each model
// call (its estimates, per lifetime).
type TokenUse struct {
	Requests            int
	Total               int // input tokens over all requests
	Peak, PeakTurn      int
	Resident, Refreshed int // summed over requests
	Accumulated         int
	Compactions         int
	CompactionsFailed   int
	TokensSaved         int // by successful compactions
}

// Build turns a loaded run into the page's data.
func Build(r *Run) *Page {
	p := &Page{RunDir: filepath.Base(r.Dir), Problems: r.Problems}
	byTurn := map[int]*Turn{}
	turn := func(n int) *Turn {
		if t, ok := byTurn[n]; ok {
			return t
		}
		t := &Turn{Number: n}
		p.Turns = append(p.Turns, t)
		byTurn[n] = t
		return t
	}
	var first, last time.Time
	var points []point
	var marks []compactionMark
	w := newWorld()
	for _, ev := range r.Events {
		if first.IsZero() || ev.Time.Before(first) {
			first = ev.Time
		}
		if ev.Time.After(last) {
			last = ev.Time
		}
		switch ev.Kind {
		case runlog.EventTaskStart:
			p.Instruction, p.Task = ev.Text, ev.Task
			continue
		case runlog.EventDone:
			p.Done = ev.Done
			continue
		case runlog.EventContext:
			if c := ev.Tokens; c != nil {
				points = append(points, point{turn: ev.Turn, c: *c})
				p.Tokens.add(ev.Turn, *c)
				t := turn(ev.Turn)
				cc := *c
				t.Tokens = &cc
			}
			continue
		case runlog.EventCompaction:
			if c := ev.Compaction; c != nil {
				marks = append(marks, compactionMark{turn: ev.Turn, info: *c})
				if c.OK {
					p.Tokens.Compactions++
					p.Tokens.TokensSaved += c.TokensBefore - c.TokensAfter
				} else {
					p.Tokens.CompactionsFailed++
				}
			}
		}
		row, ok := rowFor(ev.Event)
		// Memory consolidation runs after the last turn: the session's.
		if ev.Turn == 0 || ev.Kind == runlog.EventMemory {
			if ok {
				p.Session = append(p.Session, row)
			}
			continue
		}
		t := turn(ev.Turn)
		if ok {
			t.Rows = append(t.Rows, row)
		}
		if ev.Kind == runlog.EventObservation && ev.Observation != nil {
			w.observe(ev.Observation, ev.Turn)
			t.Map = w.picture()
		}
		for _, im := range ev.Images {
			label := im.Camera
			if label == "" {
				label = string(ev.Kind) + " image"
			}
			t.Images = append(t.Images, ImageView{Label: label, URI: template.URL(im.DataURI()), Width: im.Width, Height: im.Height})
		}
	}
	if !first.IsZero() {
		p.Start = first.UTC().Format("2006-01-02 15:04:05 UTC")
		p.Duration = last.Sub(first).Round(time.Millisecond).String()
	}
	p.Outcome = "fail"
	if p.Done != nil && p.Done.Reason == runlog.DoneFinal {
		p.Outcome = "ok"
	}
	p.Chart = newChart(points, marks)
	return p
}

func (u *TokenUse) add(turn int, c runlog.TokenCounts) {
	u.Requests++
	u.Total += c.Total
	u.Resident += c.Resident
	u.Refreshed += c.Refreshed
	u.Accumulated += c.Accumulated
	if c.Total > u.Peak {
		u.Peak, u.PeakTurn = c.Total, turn
	}
}

// rowFor renders one event as a timeline row; false for events the page
// shows elsewhere or not at all (a hook that did not apply).
func rowFor(ev runlog.Event) (Row, bool) {
	switch ev.Kind {
	case runlog.EventObservation:
		r := Row{Kind: "observe", Label: "observe", Text: ev.Text}
		if o := ev.Observation; o != nil {
			var parts []string
			if c := o.Clearance; c != nil {
				parts = append(parts, trace.ClearanceText(c))
			}
			if o.Held != "" {
				parts = append(parts, "holding "+o.Held)
			}
			if o.Summary != "" {
				parts = append(parts, o.Summary)
			}
			r.Text = strings.Join(parts, " · ")
			r.Detail = pretty(o)
		}
		return r, true
	case runlog.EventModel:
		r := Row{Kind: "model", Label: "model", Text: ev.Text}
		if ev.Tool != "" {
			r.Label = "model → " + ev.Tool + " " + compact(ev.Args, 120)
			r.Detail = pretty(ev.Args)
		} else {
			r.Label = "model (no tool call: the report)"
		}
		return r, true
	case runlog.EventModelCall:
		// A decide call is the model row above; the others (an evaluator's
		// answer, a summary, a consolidation) get a row of their own.
		mc := ev.ModelCall
		if mc == nil || mc.Purpose == model.PurposeDecide {
			return Row{}, false
		}
		r := Row{Kind: "model", Label: "model call: " + string(mc.Purpose), Text: mc.Text}
		if mc.Error != "" {
			r.Text, r.Status = mc.Error, "fail"
		}
		return r, true
	case runlog.EventModelRetry:
		rt := ev.Retry
		if rt == nil {
			return Row{}, false
		}
		r := Row{Kind: "retry", Label: fmt.Sprintf("model call retried (attempt %d failed)", rt.Attempt), Status: "warn",
			Text: fmt.Sprintf("%s: %s", rt.Provider, rt.Message), Detail: pretty(rt)}
		if rt.Status != 0 {
			r.Text = fmt.Sprintf("%s: HTTP %d: %s", rt.Provider, rt.Status, rt.Message)
		}
		r.Text += fmt.Sprintf(" — waited %s", rt.Wait())
		if rt.RetryAfter {
			r.Text += " (the server's Retry-After)"
		}
		return r, true
	case runlog.EventHook:
		h := ev.Hook
		if h == nil || h.Decision == runlog.DecisionSkip || h.Decision == runlog.DecisionEvaluate {
			return Row{}, false // the evaluation row reports an evaluate hook
		}
		r := Row{Kind: "hook", Label: fmt.Sprintf("hook %s %s: %s", h.Phase, h.Hook, h.Decision), Text: h.Reason}
		switch h.Decision {
		case runlog.DecisionBlock:
			r.Status = "fail"
		case runlog.DecisionClamp, runlog.DecisionRewrite:
			r.Status = "warn"
		case runlog.DecisionConfirm:
			r.Status = "ok"
		}
		if h.Before != nil || h.After != nil {
			r.Detail = pretty(map[string]any{"before": h.Before, "after": h.After})
		}
		return r, true
	case runlog.EventToolCall:
		return Row{Kind: "call", Label: "call " + ev.Tool, Text: compact(ev.Args, 160), Detail: pretty(ev.Args)}, true
	case runlog.EventToolResult:
		res := ev.Result
		if res == nil {
			return Row{}, false
		}
		r := Row{Kind: "result", Label: "result " + ev.Tool + " ✓", Status: "ok", Text: compact(res.Value, 160), Detail: pretty(res.Value)}
		if !res.Success {
			r.Label, r.Status, r.Text = "result "+ev.Tool+" ✗", "fail", res.Reason
		}
		return r, true
	case runlog.EventEvaluation:
		v := ev.Verdict
		if v == nil {
			return Row{}, false
		}
		r := Row{Kind: "verdict", Label: fmt.Sprintf("verdict %s: %s (by %s)", ev.Tool, v.Status, v.Source), Text: v.Reason}
		if r.Text == "" {
			r.Text = v.Evidence
		}
		switch v.Status {
		case "success":
			r.Status = "ok"
		case "failure":
			r.Status = "fail"
		default:
			r.Status = "warn"
		}
		return r, true
	case runlog.EventCompaction:
		c := ev.Compaction
		if c == nil {
			return Row{}, false
		}
		if !c.OK {
			return Row{Kind: "compaction", Label: "compaction failed", Text: c.Error + " (context unchanged)", Status: "fail"}, true
		}
		return Row{Kind: "compaction", Label: "compaction", Status: "warn", Text: fmt.Sprintf(
			"%d → %d messages, ~%d → ~%d tokens in %d round(s)", c.MessagesBefore, c.MessagesAfter, c.TokensBefore, c.TokensAfter, c.Rounds)}, true
	case runlog.EventNotify:
		return Row{Kind: "note", Label: "notify user", Text: ev.Text}, true
	case runlog.EventQuestion:
		return Row{Kind: "question", Label: "asked the user", Text: ev.Text, Detail: pretty(ev.Args)}, true
	case runlog.EventReplan:
		return Row{Kind: "replan", Label: "instruction revised", Text: ev.Text, Status: "warn"}, true
	case runlog.EventCancel:
		return Row{Kind: "cancel", Label: "cancelled", Text: ev.Text, Status: "fail"}, true
	case runlog.EventHandover:
		label := "operator took over"
		if ev.Handover != nil && ev.Handover.Action == runlog.HandoverBack {
			label = "operator handed back"
		}
		return Row{Kind: "handover", Label: label, Text: ev.Text, Status: "warn", Detail: pretty(ev.Handover)}, true
	case runlog.EventMemory:
		return Row{Kind: "memory", Label: "memory", Text: ev.Text}, true
	case runlog.EventSinkError:
		return Row{Kind: "error", Label: "event sink", Text: ev.Text, Status: "fail"}, true
	}
	return Row{Kind: "other", Label: string(ev.Kind), Text: ev.Text}, true
}

// compact is one-line JSON of a value, cut at n runes.
func compact(v any, n int) string {
	b, err := json.Marshal(v)
	if err != nil || string(b) == "null" || string(b) == "{}" {
		return ""
	}
	if r := []rune(string(b)); len(r) > n {
		return string(r[:n]) + "…"
	}
	return string(b)
}

// pretty is indented JSON of a value; empty for nothing.
func pretty(v any) string {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Sprintf("(not encodable: %v)", err)
	}
	if s := string(b); s != "null" && s != "{}" {
		return s
	}
	return ""
}
