package engine_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
)

// benchModel is a zero-latency model: it answers every decide with one tool
// call, and controls the benchmark timer so only turns warm+1..warm+window
// of each task are measured.
type benchModel struct {
	b             *testing.B
	warm, window  int
	calls         int
	cpu, cpuStart time.Duration
	resp, final   model.Response
}

func (m *benchModel) Generate(_ context.Context, req model.Request) (model.Response, error) {
	if req.Purpose == model.PurposeCompact {
		return model.Response{Text: "Earlier: the robot patrolled the hall; every move succeeded."}, nil
	}
	m.calls++
	switch m.calls {
	case m.warm + 1:
		m.b.StartTimer()
		m.cpuStart = cpuTime()
	case m.warm + m.window + 1:
		m.cpu += cpuTime() - m.cpuStart
		m.b.StopTimer()
		return m.final, nil
	}
	return m.resp, nil
}

// benchTurns measures the harness overhead of one turn (all seven stages, an
// in-process observation and tool, a zero-latency model) at turn warm+1 and
// beyond, with compaction active.
func benchTurns(b *testing.B, warm, window int, setup ...func(*fixture)) {
	f := newFixture(b)
	for _, fn := range setup {
		fn(f)
	}
	f.spec.Safety.MaxTurns = warm + window + 2
	c := &f.spec.Context.Compaction
	c.Enabled, c.ContextWindow, c.ReserveTokens = true, 8000, 2000
	c.KeepRecentTurns, c.KeepRecentTokens = 4, 2000
	f.tool("move").fn = func(context.Context, map[string]any) runlog.Envelope {
		return runlog.Envelope{Success: true, Value: map[string]any{"moved_m": 0.5, "pose": "hall"}}
	}
	// The tools are in-process tools as the builtins are: they return at
	// once, so the guard calls them inline (ContextBound), and nothing keeps
	// a log of their calls (the fixture's effects log would grow by two
	// strings a turn for the whole benchmark, and the garbage collector
	// would scan it every cycle).
	f.log = nil
	for set, ts := range f.tools {
		for i, t := range ts {
			ft := t.(*fakeTool)
			ft.log = nil
			ts[i] = boundTool{ft}
		}
		f.tools[set] = ts
	}
	m := &benchModel{b: b, warm: warm,
		resp:  model.Response{Text: "moving", ToolCalls: []model.ToolCall{{ID: "c", Name: "move", Arguments: []byte(`{"distance_m":0.5}`)}}},
		final: model.Response{Text: "done"}}
	f.decide = &recorder{inner: m, name: "bench", noKeep: true}
	opts := f.optionsFor(b)
	h, err := engine.New(b.Context(), f.spec, opts)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	b.ReportAllocs()
	b.StopTimer()
	b.ResetTimer()
	for done := 0; done < b.N; {
		m.calls, m.window = 0, min(window, b.N-done)
		if err := h.ResetSession(); err != nil {
			b.Fatal(err)
		}
		rep, err := h.Run(b.Context(), "patrol the hall")
		if err != nil || rep.Reason != runlog.DoneFinal {
			b.Fatalf("task ended %+v, %v", rep, err)
		}
		done += m.window
	}
	// CPU time per turn (all threads of the process, GC included) is the
	// figure to trust on a shared machine, where wall time includes waiting.
	b.ReportMetric(float64(m.cpu.Nanoseconds())/float64(b.N), "cpu-ns/turn")
}

// boundTool is a fake tool that says it returns when its context ends.
type boundTool struct{ *fakeTool }

func (boundTool) ReturnsOnCancel() {}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkTurnAt10(b *testing.B)   { benchTurns(b, 10, 10) }
func BenchmarkTurnAt1000(b *testing.B) { benchTurns(b, 1000, 500) }
func BenchmarkTurnAt3000(b *testing.B) { benchTurns(b, 3000, 500) }
