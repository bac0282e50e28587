package policies

import (
	"testing"
)

// FuzzParseVerdict: whatever the evaluator model answers, the verdict is
// well formed — a known status, a reason on failure, confidence in 0..1.
func FuzzParseVerdict(f *testing.F) {
	for _, s := range []string{
		`{"status":"success","confidence":0.9}`,
		"```json\n{\"status\":\"failure\",\"reason\":\"x\"}\n```",
		`{"status":"process"}`, `{`, `}{`, `{"confidence":-1}`, `{"status":"failure","reason":""}`, ``,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		v := parseVerdict(text)
		switch v.Status {
		case "success", "process":
		case "failure":
			if v.Reason == "" {
				t.Errorf("failure without a reason for %q", text)
			}
		default:
			t.Errorf("status %q for %q", v.Status, text)
		}
		if v.Confidence < 0 || v.Confidence > 1 || v.Confidence != v.Confidence {
			t.Errorf("confidence %v for %q", v.Confidence, text)
		}
		if v.Source != "model" {
			t.Errorf("source %q", v.Source)
		}
	})
}
