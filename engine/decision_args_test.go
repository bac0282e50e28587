package engine

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/thea-harness/thea/engine/model"
)

func TestDecisionArgsOnlyForTheSameBytes(t *testing.T) {
	tn := &Turn{}
	raw := json.RawMessage(`{"d":1}`)
	want := errors.New("kept")
	tn.KeepDecisionArgs(raw, ParsedArgs{Err: want})
	if p, ok := tn.DecisionArgs(json.RawMessage(`{"d":1}`)); !ok || !errors.Is(p.Err, want) {
		t.Fatalf("same bytes: got %+v, %v", p, ok)
	}
	raw[5] = '2' // changed in place: what was kept is for other bytes
	if _, ok := tn.DecisionArgs(raw); ok {
		t.Fatal("arguments changed in place still matched what was kept")
	}
	tn.KeepDecisionArgs(raw, ParsedArgs{})
	tn.SetDecision(&model.Response{})
	if _, ok := tn.DecisionArgs(raw); ok {
		t.Fatal("a new decision kept the previous decision's arguments")
	}
}
