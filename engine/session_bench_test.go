package engine_test

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// patrolTask builds a harness whose model calls `move` for turns turns, then
// answers; every observation carries a 64 KiB camera image (refreshed
// context) and every result a few hundred bytes (accumulated context), with
// compaction on at a realistic window. size, when set, sees every decide
// request.
func patrolTask(b *testing.B, turns int, size func(model.Request)) *engine.Harness {
	f := newFixture(b)
	f.log = nil
	f.spec.Safety.MaxTurns = turns + 2
	c := &f.spec.Context.Compaction
	c.Enabled, c.ContextWindow, c.ReserveTokens = true, 32000, 4000
	c.KeepRecentTurns, c.KeepRecentTokens = 8, 8000
	img := make([]byte, 64<<10)
	for i := range img {
		img[i] = byte(i * 7)
	}
	f.tool("observe").fn = func(context.Context, map[string]any) runlog.Envelope {
		return runlog.Envelope{Success: true, Value: map[string]any{"summary": "hall", "images": []any{map[string]any{"camera": "head", "mime": "image/png"}}},
			Images: []world.Image{{Camera: "head", MIME: "image/png", Width: 320, Height: 240, Data: img}}}
	}
	f.tool("move").fn = func(context.Context, map[string]any) runlog.Envelope {
		return runlog.Envelope{Success: true, Value: map[string]any{"moved_m": 0.5, "pose": "hall",
			"note": "the base moved half a metre along the hall; the path ahead is clear for two more metres"}}
	}
	for _, ts := range f.tools {
		for _, t := range ts {
			t.(*fakeTool).log = nil
		}
	}
	m := &countedModel{turns: turns, size: size,
		resp: model.Response{Text: "moving on", ToolCalls: []model.ToolCall{{ID: "c", Name: "move", Arguments: json.RawMessage(`{"distance_m":0.5}`)}}}}
	f.decide = &recorder{inner: m, name: "bench", noKeep: true}
	h, err := engine.New(b.Context(), f.spec, f.optionsFor(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = h.Close() })
	return h
}

// countedModel calls move until turns decide calls were made, then answers.
type countedModel struct {
	turns, calls int
	resp         model.Response
	size         func(model.Request)
}

func (m *countedModel) Generate(_ context.Context, req model.Request) (model.Response, error) {
	if req.Purpose == model.PurposeCompact {
		return model.Response{Text: "Earlier: the robot patrolled the hall; every move succeeded."}, nil
	}
	if m.size != nil {
		m.size(req)
	}
	m.calls++
	if m.calls > m.turns {
		return model.Response{Text: "done"}, nil
	}
	return m.resp, nil
}

func heapInuse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// BenchmarkSessionMemory1000Turns: the resident memory of a session after
// a 1,000-turn task (heap in use after GC, the harness still open), and what
// it adds to the process. Run with -benchtime=1x.
func BenchmarkSessionMemory1000Turns(b *testing.B) {
	const turns = 1000
	var total, added float64
	for range b.N {
		before := heapInuse()
		h := patrolTask(b, turns, nil)
		rep, err := h.Run(b.Context(), "patrol the hall")
		if err != nil || rep.Reason != runlog.DoneFinal {
			b.Fatalf("task ended %+v, %v", rep, err)
		}
		after := heapInuse()
		total += float64(after)
		added += float64(after) - float64(before)
		runtime.KeepAlive(h)
		_ = h.Close()
	}
	b.ReportMetric(total/float64(b.N)/(1<<20), "heap-inuse-MiB")
	b.ReportMetric(added/float64(b.N)/(1<<20), "session-MiB")
}

// BenchmarkRequestSize2000Turns: the size of every decide request across a
// 2,000-turn task (JSON of its messages, image data included): the largest,
// the mean and the last. With compaction the size stays bounded instead of
// growing with the turn count. Run with -benchtime=1x.
func BenchmarkRequestSize2000Turns(b *testing.B) {
	const turns = 2000
	var largest, last, sum, n float64
	var images int
	for range b.N {
		h := patrolTask(b, turns, func(req model.Request) {
			size := 0
			for _, m := range req.Messages {
				raw, _ := json.Marshal(m)
				size += len(raw)
				for _, p := range m.Parts {
					if p.Image != nil {
						size += len(p.Image.Data)
						images++
					}
				}
			}
			largest = max(largest, float64(size))
			last = float64(size)
			sum += float64(size)
			n++
		})
		rep, err := h.Run(b.Context(), "patrol the hall")
		if err != nil || rep.Reason != runlog.DoneFinal {
			b.Fatalf("task ended %+v, %v", rep, err)
		}
		_ = h.Close()
	}
	b.ReportMetric(largest/1024, "max-req-KiB")
	b.ReportMetric(sum/n/1024, "mean-req-KiB")
	b.ReportMetric(last/1024, "last-req-KiB")
	b.ReportMetric(float64(images)/n, "images/req")
}
