package engine_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
)

// An observation naming 1,000 objects never seen before, turn after turn:
// the Brief lists at most max_brief_refs refs and counts the rest, so
// Refreshed context does not grow with the Scene Graph.
func TestBriefBoundKeepsRefreshedContextFlat(t *testing.T) {
	const turns, perTurn = 5, 1000
	var rs []model.Response
	for range turns - 1 {
		rs = append(rs, toolResp("", call("move", `{}`)))
	}
	f := newFixture(t, append(rs, toolResp("done"))...)
	f.spec.SceneGraph.MaxBriefRefs = 25
	n := 0
	f.tool("observe").fn = func(context.Context, map[string]any) runlog.Envelope {
		n++
		dets := make([]any, perTurn)
		for i := range dets {
			dets[i] = map[string]any{"name": fmt.Sprintf("o%d_%d", n, i), "class": "thing", "relation": "on", "target": "floor"}
		}
		return runlog.Envelope{Success: true, Value: map[string]any{"detections": dets, "summary": "a crowded hall"}}
	}
	h := f.harness(t)
	var refreshed []int
	var last string
	for ev := range h.RunStream(t.Context(), "look around") {
		switch {
		case ev.Kind == runlog.EventContext:
			refreshed = append(refreshed, ev.Tokens.Refreshed)
		case ev.Kind == runlog.EventScene && ev.Tool == "":
			last = ev.Text
		}
	}
	if len(refreshed) != turns {
		t.Fatalf("context events %d, want %d", len(refreshed), turns)
	}
	// The observation is the same size every turn; only the Brief could grow.
	if grown := refreshed[turns-1] - refreshed[0]; grown > 200 {
		t.Fatalf("Refreshed context grew by %d tokens over %d turns: %v", grown, turns, refreshed)
	}
	// 5,002 refs: the robot, 25 listed, place:floor (no line: it carries
	// nothing the objects' lines do not name) and 4,975 not listed.
	if strings.Count(last, "\n- ") != 1+25 || !strings.Contains(last, fmt.Sprintf("… and %s more refs", "4,975")) {
		t.Fatalf("last Brief not bounded:\n%.3000s", last)
	}
}
