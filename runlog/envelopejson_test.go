package runlog

import (
	"encoding/json"
	"testing"

	"github.com/thea-harness/thea/world"
)

// The flat form as it was written through a map and encoding/json: the
// direct encoding must give the same bytes (run logs and requests compare
// byte for byte across versions).
func TestEnvelopeJSONSameAsThroughAMap(t *testing.T) {
	viaMap := func(e Envelope) []byte {
		m := map[string]any{}
		for k, v := range e.Value {
			m[k] = v
		}
		m["success"] = e.Success
		if e.Reason != "" {
			m["reason"] = e.Reason
		} else {
			delete(m, "reason")
		}
		if e.RunID != "" {
			m["run_id"] = e.RunID
		}
		if e.Verdict != nil {
			m["verdict"] = e.Verdict
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, e := range []Envelope{
		{Success: true},
		{Success: false, Reason: `blocked: <clearance> 0.2 m & "falling"`},
		{Success: true, Value: map[string]any{"pose": "hall", "moved_m": 0.5, "zeta": []any{1.0, "x", nil}, "alpha": map[string]any{"b": true}}},
		{Success: true, Value: map[string]any{"success": "shadowed", "reason": "shadowed", "run_id": "kept", "verdict": "kept"}},
		{Success: true, RunID: "r1", Verdict: &world.Verdict{Status: world.VerdictFailure, Reason: "not in drawer"},
			Value: map[string]any{"run_id": "shadowed", "verdict": "shadowed", "n": 3}},
	} {
		got, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		if want := viaMap(e); string(got) != string(want) {
			t.Errorf("got  %s\nwant %s", got, want)
		}
	}
	if _, err := json.Marshal(Envelope{Value: map[string]any{"x": func() {}}}); err == nil {
		t.Error("a value that does not encode gave no error")
	}
}
