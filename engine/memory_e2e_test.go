package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/models/script"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// A task's end consolidates it into memory (one call, purpose consolidate,
// over its notes and evidence) and says so in a memory event before done;
// the lesson returns, bounded, in the tool's description at the next task.
func TestTaskEndConsolidatesAndNextTaskSeesExperience(t *testing.T) {
	f := newFixture(t,
		toolResp("", call("move", `{"d":3}`)), toolResp("", call("move", `{"d":1}`)), toolResp("moved"),
		toolResp("", call("move", `{"d":1}`)), toolResp("moved again"))
	calls := 0
	f.tool("move").fn = func(context.Context, map[string]any) runlog.Envelope {
		if calls++; calls == 1 {
			return runlog.Failure("too far: at most 1 m per call")
		}
		return runlog.Envelope{Success: true}
	}
	f.spec.Memory = schema.Memory{Dir: "mem", ToolExperienceChars: 60, MemoryChars: 8000, Consolidation: schema.Consolidation{
		Enabled: true, Threshold: 0.7, Model: &schema.Model{Provider: "test", Config: testModel{Name: "summariser"}}}}
	cons, err := script.FromEntries("consolidate script",
		script.Entry{Purpose: model.PurposeConsolidate, Text: "```json\n" + `{"candidates":[
			{"scope":"tool","tool":"move","entry":"Moves longer than 1 m fail; split them.","confidence":0.9},
			{"scope":"memory","entry":"The robot is in a kitchen.","confidence":0.5}]}` + "\n```"},
		script.Entry{Purpose: model.PurposeConsolidate, Text: "Nothing to remember."})
	must(t, err)
	f.compact = &recorder{inner: cons, name: "consolidator", log: f.log}
	h := f.harness(t)

	evs := collect(h.RunStream(t.Context(), "go to the table"))
	ks := kinds(evs)
	mi := slices.Index(ks, runlog.EventMemory)
	if mi < 0 || mi != len(ks)-2 || ks[len(ks)-1] != runlog.EventDone {
		t.Fatalf("want a memory event just before done: %v", ks)
	}
	if want := "memory: 1 of 2 candidates written, 1 below threshold (tool_experience/move.md +1)"; evs[mi].Text != want {
		t.Fatalf("memory event %q, want %q", evs[mi].Text, want)
	}
	reqs := f.compact.requests()
	if len(reqs) != 1 || reqs[0].Purpose != model.PurposeConsolidate {
		t.Fatalf("consolidation requests %+v", reqs)
	}
	prompt := reqs[0].Messages[1].Text()
	for _, want := range []string{"Goal: go to the table", `turn 1: move({"d":3}) failed: too far: at most 1 m per call`,
		`turn 2: move({"d":1}) succeeded`, "task ended (final_answer) after 3 turns: moved", "Tools (valid names for scope \"tool\"): move, observe"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("consolidation prompt lacks %q:\n%s", want, prompt)
		}
	}
	exp, err := os.ReadFile(filepath.Join(f.spec.Dir, "mem", "tool_experience", "move.md"))
	must(t, err)
	if !strings.Contains(string(exp), "] Moves longer than 1 m fail; split them.\n") {
		t.Fatalf("move.md:\n%s", exp)
	}
	if _, err := os.Stat(filepath.Join(f.spec.Dir, "mem", "MEMORY.md")); !os.IsNotExist(err) {
		t.Fatalf("a below-threshold memory candidate was written: %v", err)
	}

	evs = collect(h.RunStream(t.Context(), "go back"))
	var moveDesc string
	dreqs := f.decide.requests()
	for _, d := range dreqs[len(dreqs)-1].Tools {
		if d.Name == "move" {
			moveDesc = d.Description
		}
	}
	if !strings.HasSuffix(moveDesc, "Experience from earlier tasks:\n- Moves longer than 1 m fail; split them.") {
		t.Fatalf("next task's move description:\n%s", moveDesc)
	}
	mi = slices.IndexFunc(evs, func(e runlog.Event) bool { return e.Kind == runlog.EventMemory })
	if mi < 0 || !strings.HasPrefix(evs[mi].Text, "memory: nothing written: malformed consolidation answer: the answer holds no JSON object") {
		t.Fatalf("malformed answer's memory event: %+v", evs)
	}
}

// A cancelled task is not consolidated.
func TestCancelledTaskNotConsolidated(t *testing.T) {
	f := newFixture(t, toolResp("", call("move", `{}`)), toolResp("done"))
	f.spec.Memory = schema.Memory{Dir: "mem", ToolExperienceChars: 800, MemoryChars: 8000, Consolidation: schema.Consolidation{Enabled: true, Threshold: 0.7,
		Model: &schema.Model{Provider: "test", Config: testModel{Name: "summariser"}}}}
	f.compact = &recorder{inner: script.FromResponses(), name: "consolidator", log: f.log}
	h := f.harness(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	evs := collect(h.RunStream(ctx, "go"))
	if slices.Contains(kinds(evs), runlog.EventMemory) || len(f.compact.requests()) != 0 {
		t.Fatalf("a cancelled task was consolidated: %v", kinds(evs))
	}
}
