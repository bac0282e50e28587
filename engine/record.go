package engine

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/thea-harness/thea/engine/model"
)

// Record appends the compact results of this turn's calls to Accumulated
// context (the envelope JSON bounded by tool_result_max_chars keeping start
// and end; transient images kept for the next request only), adds a brief
// Task Notes event, and applies the failure budget and loop detection.
func (tn *Turn) Record() {
	if tn.recorded || len(tn.results) == 0 {
		return
	}
	tn.recorded = true
	h, t := tn.h, tn.t
	limit := h.spec.Context.Compaction.ToolResultMaxChars
	for i := range tn.results {
		r := &tn.results[i]
		b, err := json.Marshal(r.env)
		if err != nil {
			b = []byte(fmt.Sprintf(`{"success":false,"reason":"result could not be encoded: %v"}`, err))
		}
		parts := []model.Part{{Text: boundMiddle(string(b), limit)}}
		for j := range r.env.Images {
			parts = append(parts, model.Part{Image: &r.env.Images[j]})
		}
		h.store.append(entry{kind: kindToolResult, group: tn.group, pending: len(r.env.Images) > 0,
			msg: model.Message{Role: model.RoleTool, ToolCallID: r.id, Name: r.name, Parts: parts}})
		h.emit(t, Event{Kind: EventToolResult, Tool: r.name, CallID: r.id, Args: r.args, Result: &r.env, Images: r.env.Images})
		t.notes.add(tn.Number, noteLine(r))
	}
	if tn.end != nil || tn.results[0].revised {
		return
	}
	tn.budget(&tn.results[0])
}

// budget counts the executed call against the failure budget and the loop
// detector; either may end the task.
func (tn *Turn) budget(r *callResult) {
	h, t := tn.h, tn.t
	failed := !r.env.Success || (r.env.Verdict != nil && r.env.Verdict.Status == "failure")
	if failed {
		t.consecutive++
		t.total++
		t.notes.setPhase("recovering")
	} else {
		t.consecutive = 0
		t.notes.setPhase("acting")
	}
	fb := h.spec.Safety.FailureBudget
	switch {
	case fb.Consecutive > 0 && t.consecutive >= fb.Consecutive:
		rep := h.terminate(t, DoneFailureBudget, fmt.Sprintf("%d consecutive failed calls (failure_budget.consecutive %d)", t.consecutive, fb.Consecutive))
		tn.end = &rep
		return
	case fb.Total > 0 && t.total >= fb.Total:
		rep := h.terminate(t, DoneFailureBudget, fmt.Sprintf("%d failed calls in this task (failure_budget.total %d)", t.total, fb.Total))
		tn.end = &rep
		return
	}
	ld := h.spec.Safety.LoopDetection
	if !ld.Enabled || ld.Repeats <= 0 {
		return
	}
	args, _ := json.Marshal(r.args) // map keys are sorted: a canonical key
	key := r.name + string(args)
	if key == t.lastKey {
		t.repeats++
	} else {
		t.lastKey, t.repeats = key, 1
	}
	if t.repeats >= ld.Repeats {
		rep := h.terminate(t, DoneLoopDetected, fmt.Sprintf("the same call %s was repeated %d times in a row", r.name, t.repeats))
		tn.end = &rep
	}
}

func noteLine(r *callResult) string {
	var b strings.Builder
	b.WriteString(r.name)
	if r.env.Success {
		b.WriteString(": ok")
	} else {
		b.WriteString(": failed: " + oneLine(r.env.Reason, 120))
	}
	if v := r.env.Verdict; v != nil {
		b.WriteString("; verdict " + v.Status)
		if v.Reason != "" {
			b.WriteString(": " + oneLine(v.Reason, 120))
		}
	}
	return b.String()
}

// settle answers every call of the turn that has no result yet (the task
// ended between the decision and its execution) and records them, so the
// session never holds a tool call without its result.
func (tn *Turn) settle() {
	if tn.resp == nil || tn.recorded {
		return
	}
	answered := map[string]bool{}
	for _, r := range tn.results {
		answered[r.id] = true
	}
	for _, c := range tn.resp.ToolCalls {
		if !answered[c.ID] {
			tn.results = append(tn.results, callResult{id: c.ID, name: c.Name, args: decodeArgs(c.Arguments),
				env: Failure("not executed: the task ended before this call ran")})
		}
	}
	tn.Record()
}

func userText(s string) model.Message {
	return model.Message{Role: model.RoleUser, Parts: []model.Part{{Text: s}}}
}
