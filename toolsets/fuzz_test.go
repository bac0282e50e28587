package toolsets

import (
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/thea-harness/thea/engine"
)

// FuzzToEnvelope feeds arbitrary MCP tool results (as they arrive on the
// wire) to the result → envelope mapping and the result cap: never a panic,
// a failure always has a reason, the envelope always encodes, and a capped
// envelope stays near the cap. Seeds: testdata/fuzz/FuzzToEnvelope.
func FuzzToEnvelope(f *testing.F) {
	f.Add([]byte(`{"content":[{"type":"text","text":"{\"success\":true,\"x\":1}"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		raw := json.RawMessage(data)
		res, err := mcp.ParseCallToolResult(&raw)
		if err != nil || res == nil {
			return
		}
		env := toEnvelope("tool", res)
		if !env.Success && env.Reason == "" {
			t.Fatalf("failure without a reason: %+v", env)
		}
		if _, err := json.Marshal(env); err != nil {
			t.Fatalf("envelope does not encode: %v", err)
		}
		const limit = 2048
		engine.CapResult(&env, "tool", limit)
		b, err := json.Marshal(env)
		if err != nil {
			t.Fatalf("capped envelope does not encode: %v", err)
		}
		if len(b) > 4*limit {
			t.Fatalf("capped envelope is %d bytes", len(b))
		}
	})
}
