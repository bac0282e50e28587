package engine_test

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
)

// One request shows one clock: in the second task of a session, the Scene
// Graph Brief, the Observation header and the Task Notes all count the
// task's turns, and a fact seen only in the first task says so ("task 1")
// instead of a turn number that reads as one of this task's.
func TestOneTurnClockAcrossTasks(t *testing.T) {
	f := newFixture(t,
		// Task 1: three turns.
		toolResp("", call("move", `{}`)),
		toolResp("", call("move", `{}`)),
		toolResp("done"),
		// Task 2: three turns.
		toolResp("", call("move", `{}`)),
		toolResp("", call("move", `{}`)),
		toolResp("done"),
	)
	f.spec.SceneGraph.StaleAfterTurns = 0
	observe := f.tool("observe")
	observe.fn = func(context.Context, map[string]any) runlog.Envelope {
		v := map[string]any{"pose": map[string]any{"x": 1.0, "y": 2.0, "theta_deg": 0.0, "room": "kitchen"}, "summary": "kitchen"}
		// The mug is seen in the first task only.
		if observe.calls.Load() <= 3 {
			v["detections"] = []any{map[string]any{"name": "mug", "class": "cup", "relation": "on", "target": "table", "room": "kitchen", "visible": true}}
		}
		return runlog.Envelope{Success: true, Value: v}
	}
	h := f.harness(t)
	for _, instr := range []string{"first task", "second task"} {
		if rep, err := h.Run(t.Context(), instr); err != nil || rep.Turns != 3 {
			t.Fatalf("%s: %+v, %v", instr, rep, err)
		}
	}
	reqs := f.decide.requests()
	if len(reqs) != 6 {
		t.Fatalf("%d requests, want 6", len(reqs))
	}
	header := regexp.MustCompile(`(Scene Graph Brief|Observation) \(turn (\d+)`)
	// A stamp in the Brief: "[observe t3]", "[move ✓ t2, stale]", "[t3]".
	stamp := regexp.MustCompile(`\[(?:[^\]\[]* )?t(\d+)(?:, stale)?\]`)
	notes := regexp.MustCompile(`(?m)^- turn (\d+):`)
	for i, r := range reqs[3:] {
		turn := i + 1
		text := reqText(r)
		task2 := text[strings.Index(text, "New instruction (task 2)"):]
		for _, m := range header.FindAllStringSubmatch(text, -1) {
			if n, _ := strconv.Atoi(m[2]); n != turn {
				t.Errorf("task 2 turn %d: %q counts another clock", turn, m[0])
			}
		}
		for _, m := range stamp.FindAllStringSubmatch(task2, -1) {
			if n, _ := strconv.Atoi(m[1]); n < 1 || n > turn {
				t.Errorf("task 2 turn %d: stamp %q is no turn of this task yet", turn, m[0])
			}
		}
		for _, m := range notes.FindAllStringSubmatch(task2, -1) {
			if n, _ := strconv.Atoi(m[1]); n < 1 || n >= turn {
				t.Errorf("task 2 turn %d: Task Notes line %q is no past turn of this task", turn, m[0])
			}
		}
		if !strings.Contains(text, "- obj:mug (cup): on place:table, room kitchen [observe, task 1]") {
			t.Errorf("task 2 turn %d: the mug seen in task 1 must say so:\n%s", turn, text)
		}
		if !strings.Contains(text, "[observe t"+strconv.Itoa(turn)+"]") {
			t.Errorf("task 2 turn %d: the robot's pose is from this turn's observation:\n%s", turn, text)
		}
	}
}
