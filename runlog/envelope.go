package runlog

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/thea-harness/thea/internal/anyjson"
	"github.com/thea-harness/thea/world"
)

// Envelope is the uniform result of every call: {success: true, ...value} or
// {success: false, reason}.
type Envelope struct {
	Success bool           `json:"success"`
	Value   map[string]any `json:"value,omitempty"`
	Reason  string         `json:"reason,omitempty"`
	// Images are transient tool-result images: sent with the one model call
	// that consumes them, then replaced by a placeholder.
	Images []world.Image `json:"-"`
	// RunID identifies an evaluated run; Verdict is the evaluator's judgement.
	RunID    string         `json:"run_id,omitempty"`
	Verdict  *world.Verdict `json:"verdict,omitempty"`
	Duration time.Duration  `json:"-"`
}

// Failure builds a failure envelope.
func Failure(reason string) Envelope { return Envelope{Success: false, Reason: reason} }

// MarshalJSON writes the envelope in its documented flat form: value fields sit
// beside success (a value field named like an envelope field is dropped).
// The keys are sorted, as json.Marshal sorts a map's.
func (e Envelope) MarshalJSON() ([]byte, error) {
	var arr [16]string
	keys := append(arr[:0], "success")
	for k := range e.Value {
		if !e.overrides(k) {
			keys = append(keys, k)
		}
	}
	if e.Reason != "" {
		keys = append(keys, "reason")
	}
	if e.RunID != "" {
		keys = append(keys, "run_id")
	}
	if e.Verdict != nil {
		keys = append(keys, "verdict")
	}
	slices.Sort(keys)
	b := make([]byte, 0, 128+len(e.Reason))
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = anyjson.AppendString(b, k)
		b = append(b, ':')
		var v any
		switch {
		case !e.overrides(k):
			v = e.Value[k]
		case k == "success":
			v = e.Success
		case k == "reason":
			v = e.Reason
		case k == "run_id":
			v = e.RunID
		default:
			v = e.Verdict
		}
		var err error
		if b, err = anyjson.Append(b, v); err != nil {
			return nil, fmt.Errorf("envelope field %q: %w", k, err)
		}
	}
	return append(b, '}'), nil
}

// overrides: the envelope's own field k takes the place of a value field
// of that name (success always, reason even when empty; run_id and
// verdict when set).
func (e Envelope) overrides(k string) bool {
	switch k {
	case "success", "reason":
		return true
	case "run_id":
		return e.RunID != ""
	case "verdict":
		return e.Verdict != nil
	}
	return false
}

// UnmarshalJSON reads the flat form back (run logs, replay).
func (e *Envelope) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("envelope: %w", err)
	}
	*e = Envelope{}
	for k, raw := range m {
		var err error
		switch k {
		case "success":
			err = json.Unmarshal(raw, &e.Success)
		case "reason":
			err = json.Unmarshal(raw, &e.Reason)
		case "run_id":
			err = json.Unmarshal(raw, &e.RunID)
		case "verdict":
			e.Verdict = new(world.Verdict)
			err = json.Unmarshal(raw, e.Verdict)
		default:
			var v any
			err = json.Unmarshal(raw, &v)
			if e.Value == nil {
				e.Value = map[string]any{}
			}
			e.Value[k] = v
		}
		if err != nil {
			return fmt.Errorf("envelope field %q: %w", k, err)
		}
	}
	return nil
}
