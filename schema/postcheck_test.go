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

// A post_condition no evaluate hook would ever judge is a positioned
// warning at the post_condition: the condition has no effect, and a call
// that misses it counts as a success.
func TestPostConditionWithoutEvaluateWarns(t *testing.T) {
	for _, tc := range []struct {
		name      string
		old, new  string
		warned    []string // tools whose post_condition warns
		notWarned []string
		because   string
	}{
		{"no evaluate hook at all", "      action: evaluate\n", "      action: note\n      note: done\n",
			[]string{"navigate_to", "pick_up", "place", "open_drawer", "close_drawer"}, nil, "no post hook has action evaluate"},
		{"a when that never holds for the tool", "      when: tool.name == 'navigate_to'\n", "      when: tool.name == 'rotate'\n",
			[]string{"navigate_to"}, []string{"pick_up", "place", "open_drawer", "close_drawer"}, `no evaluate hook's when holds for "navigate_to"`},
		{"a when that reads the call's arguments may hold", "      when: tool.name == 'navigate_to'\n", "      when: args.target == 'kitchen'\n",
			nil, []string{"navigate_to", "pick_up"}, ""},
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
			text := strings.ReplaceAll(string(b), tc.old, tc.new)
			if text == string(b) {
				t.Fatalf("%q is not in the example", tc.old)
			}
			if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			s, diags := schema.Load([]string{path}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: componentstest.Descriptors(t)})
			if s == nil {
				t.Fatalf("the spec does not load: %v", diags)
			}
			warned := map[string]schema.Diagnostic{}
			for _, d := range s.Warnings {
				if tool, ok := strings.CutPrefix(d.Path, "tools."); ok && strings.HasSuffix(tool, ".post_condition") {
					warned[strings.TrimSuffix(tool, ".post_condition")] = d
				}
			}
			for _, tool := range tc.warned {
				d, ok := warned[tool]
				if !ok || !strings.Contains(d.Message, tc.because) || d.Pos.Line < 1 || !strings.Contains(lineOf(t, path, d.Pos.Line), "post_condition:") {
					t.Errorf("%s: no warning at its post_condition saying %q: %v", tool, tc.because, s.Warnings)
				}
			}
			for _, tool := range tc.notWarned {
				if d, ok := warned[tool]; ok {
					t.Errorf("%s is judged, yet warned: %v", tool, d)
				}
			}
		})
	}
}

func lineOf(t *testing.T, path string, n int) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	if n > len(lines) {
		return ""
	}
	return lines[n-1]
}
