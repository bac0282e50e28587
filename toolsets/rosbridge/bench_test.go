package rosbridge_test

import (
	"encoding/json"
	"github.com/thea-harness/thea/internal/callgate"
	"github.com/thea-harness/thea/runlog"
	"slices"
	"testing"
	"time"
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
			if env := tl.Call(callgate.Through(b.Context()), args); !env.Success {
				b.Fatal(env.Reason)
			}
		}
		return
	}
	b.Fatal("no dock tool")
}

// BenchmarkReadingAgeAtMotion is the age of a safety reading at the moment
// the pre-chain lets a motion go: the readings tool (a 5 Hz light curtain
// and person distance from the fake in a subprocess) is called after the
// decision, and the reading's age is its message's age when the tool took
// it plus the time until the chain allowed the call. p50 and p99 are
// reported in ms; they follow the topics' period (200 ms), as a reading is
// the latest message, not one waited for.
func BenchmarkReadingAgeAtMotion(b *testing.B) {
	p := fake(b)
	r := startSection(b, p.URL, safetySection(b, nil))
	g := newGuard(b, r)
	var taken struct {
		age float64
		at  time.Time
	}
	g.p = newGuardWith(b, caller{t: b, r: r, after: func(env runlog.Envelope) {
		ages, _ := env.Value["age_s"].(map[string]any)
		taken.age, _ = ages["curtain_clear"].(float64)
		taken.at = time.Now()
	}})
	var ages []float64
	b.ResetTimer()
	for b.Loop() {
		if res := g.pre(b.Context()); !res.Allowed {
			b.Fatal(res.Reason)
		}
		ages = append(ages, taken.age*1000+float64(time.Since(taken.at).Microseconds())/1000)
	}
	b.StopTimer()
	slices.Sort(ages)
	b.ReportMetric(ages[len(ages)/2], "p50-age-ms")
	b.ReportMetric(ages[len(ages)*99/100], "p99-age-ms")
}
