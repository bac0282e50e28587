package engine

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/thea-harness/thea/engine/memory"
	"github.com/thea-harness/thea/runlog"
)

// A task's evidence for consolidation: each event the loop emits feeds a
// memoryTrace, which keeps what the event says about the task.

// memoryLineChars bounds one evidence line's parts.
const memoryLineChars = 200

// memoryTrace gathers a task's evidence for consolidation as its events are
// emitted. Verdicts enter only here, as evidence.
type memoryTrace struct {
	evidence []string
	answers  []memory.Answer
}

// observe records what an event says about the task, if anything.
func (m *memoryTrace) observe(ev runlog.Event) {
	at := "turn " + strconv.Itoa(ev.Turn) + ": "
	switch ev.Kind {
	case runlog.EventToolResult:
		if ev.Result == nil {
			return
		}
		var b strings.Builder
		b.WriteString(at + ev.Tool + argsBrief(ev.Args))
		if ev.Result.Success {
			b.WriteString(" succeeded")
		} else {
			b.WriteString(" failed: " + oneLine(ev.Result.Reason, memoryLineChars))
		}
		if v := ev.Result.Verdict; v != nil {
			b.WriteString("; evaluator verdict " + string(v.Status))
			if v.Reason != "" {
				b.WriteString(": " + oneLine(v.Reason, memoryLineChars))
			}
			if v.Evidence != "" {
				b.WriteString(" (evidence: " + oneLine(v.Evidence, memoryLineChars) + ")")
			}
		}
		m.evidence = append(m.evidence, b.String())
	case runlog.EventHook:
		if h := ev.Hook; h != nil && h.Decision != "allow" && h.Decision != "skip" && h.Decision != "evaluate" && h.Decision != "note" {
			m.evidence = append(m.evidence, fmt.Sprintf("%shook %s %s %s: %s", at, h.Hook, h.Decision, ev.Tool, oneLine(h.Reason, memoryLineChars)))
		}
	case runlog.EventQuestion:
		q, _ := ev.Args["question"].(string)
		a, ok := ev.Args["answer"].(string)
		if !ok {
			return
		}
		if q == "" {
			q = ev.Text
		}
		m.answers = append(m.answers, memory.Answer{Question: oneLine(q, memoryLineChars), Answer: oneLine(a, memoryLineChars)})
		m.evidence = append(m.evidence, fmt.Sprintf("%sasked the user %q, answered %q", at, oneLine(q, memoryLineChars), oneLine(a, memoryLineChars)))
	case runlog.EventReplan:
		m.evidence = append(m.evidence, at+"instruction revised: "+oneLine(ev.Text, memoryLineChars))
	case runlog.EventCancel:
		m.evidence = append(m.evidence, at+oneLine(ev.Text, memoryLineChars))
	case runlog.EventDone:
		if d := ev.Done; d != nil {
			m.evidence = append(m.evidence, fmt.Sprintf("task ended (%s) after %d turns: %s", d.Reason, d.Turns, oneLine(d.Text, 2*memoryLineChars)))
		}
	}
}

func argsBrief(args map[string]any) string {
	if len(args) == 0 {
		return "()"
	}
	b, err := json.Marshal(args)
	if err != nil {
		return "(…)"
	}
	return "(" + oneLine(string(b), memoryLineChars) + ")"
}
