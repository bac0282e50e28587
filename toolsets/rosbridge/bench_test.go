package rosbridge_test

import (
	"encoding/json"
	"testing"
)

// BenchmarkServiceToolCall is one service tool call as a session makes it:
// the engine's guard (argument check, result cap), the body layer, the
// request built by its expr, call_service to the fake rosbridge in a
// subprocess and back, the response read by the success and reason exprs.
func BenchmarkServiceToolCall(b *testing.B) {
	p := fake(b)
	r := start(b, p.URL, opts{})
	tools, err := r.g.Tools(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	for _, tl := range tools {
		if tl.Def().Name != "dock" {
			continue
		}
		args := json.RawMessage(`{}`)
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			if env := tl.Call(b.Context(), args); !env.Success {
				b.Fatal(env.Reason)
			}
		}
		return
	}
	b.Fatal("no dock tool")
}
