package openai

import (
	"fmt"
	"testing"

	"github.com/thea-harness/thea/engine/model/call"
	"github.com/thea-harness/thea/models/internal/wiretest"
	"github.com/thea-harness/thea/schema"
)

// BenchmarkTurn is the adapter's per-turn cost with no network: rendering a
// mid-task request (no image, a 64 KB and a 512 KB camera image), langchaingo's encoding, the call
// client's buffering and the decode of a tool-call answer.
func BenchmarkTurn(b *testing.B) {
	b.Setenv("THEA_TEST_KEY", "sk-bench")
	m, err := NewWithOptions(schema.Model{Provider: "openai", Name: "gpt-test", BaseURL: "http://bench.invalid/v1",
		APIKeyEnv: "THEA_TEST_KEY", MaxTokens: 1024}, call.Options{HTTP: wiretest.Canned(toolCallReply)})
	if err != nil {
		b.Fatal(err)
	}
	for _, size := range []int{0, 64 << 10, 512 << 10} {
		req := wiretest.TurnRequest(size)
		b.Run(fmt.Sprintf("image=%dKB", size>>10), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				resp, err := m.Generate(b.Context(), req)
				if err != nil || len(resp.ToolCalls) != 1 {
					b.Fatalf("%+v %v", resp, err)
				}
			}
		})
	}
}
