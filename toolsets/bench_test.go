package toolsets

import (
	"encoding/json"
	"testing"
)

// BenchmarkMCPRoundTrip is one guarded call of a trivial tool over stdio to a
// real subprocess server, argument validation included (target under 150 µs).
func BenchmarkMCPRoundTrip(b *testing.B) {
	ts := newFixture(b).start(b)
	echo := toolByName(b, ts, "echo")
	args := json.RawMessage(`{"text":"hi"}`)
	b.ReportAllocs()
	for b.Loop() {
		if env := echo.Call(b.Context(), args); !env.Success {
			b.Fatal(env.Reason)
		}
	}
}

// BenchmarkMCPRawClient is the same round trip through mcp-go's client alone,
// to separate the guard's share from the transport's.
func BenchmarkMCPRawClient(b *testing.B) {
	ts := newFixture(b).start(b)
	c, _ := ts.connection(b.Context())
	req := mcpCallRequest("echo", json.RawMessage(`{"text":"hi"}`))
	for b.Loop() {
		if _, err := c.client.CallTool(b.Context(), req); err != nil {
			b.Fatal(err)
		}
	}
}
