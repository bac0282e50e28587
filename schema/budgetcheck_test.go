package schema_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/schema"
)

// A system prompt that alone fills a request's budget is a warning at the
// system prompt, naming the numbers: every task would end at its first
// turn. The household spec as it ships is not warned.
func TestSystemPromptOverTheBudgetWarns(t *testing.T) {
	for _, tc := range []struct {
		name   string
		window string
		warned bool
	}{
		{"as shipped", "    context_window: 200000\n    reserve_tokens: 16384\n    keep_recent_turns: 4\n    keep_recent_tokens: 20000\n", false},
		{"a 300-token window", "    context_window: 300\n    reserve_tokens: 250\n    keep_recent_turns: 4\n    keep_recent_tokens: 100\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS("../examples/household")); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "spec.yaml")
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			const shipped = "    context_window: 200000\n    reserve_tokens: 16384\n    keep_recent_turns: 4\n    keep_recent_tokens: 20000\n"
			text := strings.Replace(string(b), shipped, tc.window, 1)
			if !strings.Contains(string(b), shipped) {
				t.Fatal("the example's compaction section changed")
			}
			if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			s, diags := schema.Load([]string{path}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: componentstest.Descriptors(t)})
			if s == nil {
				t.Fatalf("the spec does not load: %v", diags)
			}
			var got *schema.Diagnostic
			for i, d := range s.Warnings {
				if d.Path == "system_prompt" && strings.Contains(d.Message, "at or over the budget") {
					got = &s.Warnings[i]
				}
			}
			switch {
			case !tc.warned && got != nil:
				t.Fatalf("warned: %v", *got)
			case tc.warned && got == nil:
				t.Fatalf("no warning at system_prompt: %v", s.Warnings)
			case tc.warned && (!strings.Contains(got.Message, "budget of a request, 50 (context.compaction context_window 300 - reserve_tokens 250)") ||
				!strings.Contains(lineOf(t, path, got.Pos.Line), "system_prompt:")):
				t.Fatalf("the warning does not give the numbers at the system prompt: %v (line %d)", got.Message, got.Pos.Line)
			}
		})
	}
}
