package toolsets

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/callgate"
	"github.com/thea-harness/thea/schema"
)

// BenchmarkMCPRoundTrip is one guarded call of a trivial tool over stdio to a
// real subprocess server, argument validation included (target under 150 µs).
func BenchmarkMCPRoundTrip(b *testing.B) {
	ts := newFixture(b).start(b)
	echo := toolByName(b, ts, "echo")
	args := json.RawMessage(`{"text":"hi"}`)
	b.ReportAllocs()
	for b.Loop() {
		if env := echo.Call(callgate.Through(b.Context()), args); !env.Success {
			b.Fatal(env.Reason)
		}
	}
}

// BenchmarkMCPRawClient is the same round trip through mcp-go's client alone,
// to separate the guard's share from the transport's.
func BenchmarkMCPRawClient(b *testing.B) {
	be, err := newMCPBackend(configFor(newFixture(b).spec, "sim", nil), engine.BackendEnv{Logger: quiet(), Emit: func(engine.SafetyEvent) {}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = be.Close() })
	bc, err := be.Connect(b.Context())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(bc.Close)
	c := bc.(*conn)
	req := mcpCallRequest("echo", json.RawMessage(`{"text":"hi"}`))
	for b.Loop() {
		if _, err := c.client.CallTool(b.Context(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGuard is the guard's own cost around an in-process tool: argument
// parsing, schema validation, timeout and panic recovery.
func BenchmarkGuard(b *testing.B) {
	h := (&fakeSession{}).handle()
	var lookup *builtinTool
	for _, t := range builtinTools() {
		if t.def.Name == "scene_lookup" {
			lookup = t
		}
	}
	g, err := engine.GuardTool(lookup, schemaContract(), time.Minute, 1<<20)
	if err != nil {
		b.Fatal(err)
	}
	args := json.RawMessage(`{"query":"mug"}`)
	b.ReportAllocs()
	for b.Loop() {
		if env := g.(engine.InProcessTool).CallWith(b.Context(), h, args); !env.Success {
			b.Fatal(env.Reason)
		}
	}
}

func schemaContract() schema.ToolContract { return schema.ToolContract{} }

// BenchmarkMCPPhysicalRoundTrip is a physical call over stdio: the body's
// motion lock, the cross-process file lock and the detached request on top of
// BenchmarkMCPRoundTrip's path.
func BenchmarkMCPPhysicalRoundTrip(b *testing.B) {
	f := newFixture(b)
	f.spec.Embodiment = schema.Embodiment{Name: "bench", Lock: schema.BodyLock{Dir: b.TempDir(), Mode: "wait"}}
	ts := f.start(b)
	move := toolByName(b, ts, "move")
	args := json.RawMessage(`{"ms":0}`)
	b.ReportAllocs()
	for b.Loop() {
		if env := move.Call(callgate.Through(b.Context()), args); !env.Success {
			b.Fatal(env.Reason)
		}
	}
}
