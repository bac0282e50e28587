package lifetimes

import (
	"encoding/base64"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/schema"
)

func randomBytes(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	return b
}

func TestStripPayloads(t *testing.T) {
	png := base64.StdEncoding.EncodeToString(randomBytes(3000))
	raw := string(randomBytes(500))
	escaped, _ := json.Marshal(string([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 0x0b, 0x0c, 0x0e}))
	tests := []struct {
		name, in    string
		want        []string // substrings of the output
		notContains string
		maxLen      int
	}{
		{name: "base64 in a JSON value", in: `{"success":true,"image":"` + png + `"}`,
			want: []string{`{"success":true,"image":"[base64 payload omitted: 4000 chars]"}`}, notContains: png[:40]},
		{name: "data URI", in: "see data:image/png;base64," + png + " here",
			want: []string{"see [image/png data URI omitted: 4022 chars] here"}, notContains: png[:40]},
		{name: "hex dump", in: "frame " + strings.Repeat("0a1b2c3d", 64), want: []string{"frame [hex payload omitted: 512 chars]"}},
		{name: "raw binary", in: "head " + raw + " tail", want: []string{"head ", "binary payload omitted", " tail"}, maxLen: 200},
		{name: "escaped binary in JSON", in: `{"blob":` + string(escaped) + `}`, want: []string{`{"blob":"[binary payload omitted: 12 bytes]"}`}},
		{name: "prose kept", in: "The mug is on the table; the drawer is open.\n\tNext: pick_up.",
			want: []string{"The mug is on the table; the drawer is open.\n\tNext: pick_up."}},
		{name: "long word without digits kept", in: strings.Repeat("abcdefghij", 30), want: []string{strings.Repeat("abcdefghij", 30)}},
		{name: "sha256 kept", in: "sha256 " + strings.Repeat("ab12", 16), want: []string{strings.Repeat("ab12", 16)}},
		{name: "stray control byte escaped", in: "bell\x07!", want: []string{`bell\x07!`}},
	}
	for _, tc := range tests {
		got := stripPayloads(tc.in)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q lacks %q", tc.name, clip(got), w)
			}
		}
		if tc.notContains != "" && strings.Contains(got, tc.notContains) {
			t.Errorf("%s: payload kept", tc.name)
		}
		if tc.maxLen > 0 && len(got) > tc.maxLen {
			t.Errorf("%s: %d bytes, want at most %d", tc.name, len(got), tc.maxLen)
		}
	}
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// TestCompactionInputWithoutPayloads: what a compaction round sends holds no
// payload from a tool result's text or a call's arguments.
func TestCompactionInputWithoutPayloads(t *testing.T) {
	payload := base64.StdEncoding.EncodeToString(randomBytes(30000))
	c := &Compactor{cfg: schema.Compaction{ToolResultMaxChars: 100000, ReasoningMaxChars: 1000}}
	var b strings.Builder
	c.render(&b, &entry{kind: KindToolResult, group: 3, msg: model.Message{Role: model.RoleTool, Name: "camera",
		Parts: []model.Part{{Text: `{"success":true,"png":"` + payload + `"}`}}}})
	c.render(&b, &entry{kind: KindResponse, group: 4, msg: model.Message{Role: model.RoleAssistant,
		ToolCalls: []model.ToolCall{{Name: "upload", Arguments: json.RawMessage(`{"data":"` + payload + `"}`)}}}})
	out := b.String()
	if strings.Contains(out, payload[:64]) || len(out) > 400 {
		t.Fatalf("compaction input carries the payload (%d bytes): %s", len(out), clip(out))
	}
	if strings.Count(out, "[base64 payload omitted: 40000 chars]") != 2 {
		t.Errorf("placeholders missing: %s", out)
	}
}

func TestStripPayloadsKeepsPaddedText(t *testing.T) {
	in := "BEGIN2" + strings.Repeat("x", 5000) + "FINISH2"
	if got := stripPayloads(in); got != in {
		t.Fatalf("a padded line was taken for a payload: %q", clip(got))
	}
}

// fragment returns the first piece of payload, of at least n characters,
// that s holds, or "".
func fragment(s, payload string, n int) string {
	for i := 0; i+n <= len(payload); i++ {
		if strings.Contains(s, payload[i:i+n]) {
			return payload[i : i+n]
		}
	}
	return ""
}

// A tool result over tool_result_max_chars, or reasoning over
// reasoning_max_chars, is cut after its payloads are replaced: cutting
// first would leave two pieces of the payload, each shorter than the
// detector's run, in the stored result and in the compaction input.
func TestCutAfterPayloadsAreReplaced(t *testing.T) {
	payload := base64.StdEncoding.EncodeToString(randomBytes(3000))
	result := `{"success":true,"image":"` + payload + `","note":"camera 2"}`
	stored := BoundResult(result, 300)
	if f := fragment(stored, payload, 16); f != "" {
		t.Fatalf("the bounded result %q holds %q of the payload", stored, f)
	}
	if !strings.Contains(stored, "[base64 payload omitted: 4000 chars]") || !strings.Contains(stored, `"note":"camera 2"`) {
		t.Fatalf("bounded result %q: want the placeholder and the rest of the result", stored)
	}
	var s Store
	s.Append(Entry{Kind: KindResponse, Group: 1, Msg: model.Message{Role: model.RoleAssistant, Parts: []model.Part{{Text: "looking"}},
		ToolCalls: []model.ToolCall{{Name: "camera", Arguments: json.RawMessage(`{}`)}}},
		Reasoning: BoundResult("the frame reads "+payload, 200)})
	s.Append(Entry{Kind: KindToolResult, Group: 1, Msg: model.Message{Role: model.RoleTool, Name: "camera",
		Parts: []model.Part{{Text: stored}}}})
	c := &Compactor{cfg: schema.Compaction{ToolResultMaxChars: 300, ReasoningMaxChars: 200}}
	var b strings.Builder
	for i := range s.acc {
		c.render(&b, &s.acc[i])
	}
	if f := fragment(b.String(), payload, 16); f != "" {
		t.Fatalf("the compaction input holds %q of the payload:\n%s", f, b.String())
	}
	if !strings.Contains(b.String(), "the frame reads [base64 payload omitted") {
		t.Fatalf("compaction input lost the reasoning:\n%s", b.String())
	}
}

// Reasoning is read by compaction only: a payload in reasoning under
// reasoning_max_chars is replaced too.
func TestShortReasoningPayloadReplaced(t *testing.T) {
	payload := base64.StdEncoding.EncodeToString(randomBytes(300))
	var s Store
	s.Append(Entry{Kind: KindResponse, Group: 1, Msg: model.Message{Role: model.RoleAssistant, Parts: []model.Part{{Text: "done"}}},
		Reasoning: "decoded " + payload})
	c := &Compactor{cfg: schema.Compaction{ToolResultMaxChars: 3000, ReasoningMaxChars: 3000}}
	var b strings.Builder
	c.render(&b, &s.acc[0])
	if f := fragment(b.String(), payload, 16); f != "" {
		t.Fatalf("the compaction input holds %q of the payload:\n%s", f, b.String())
	}
}
