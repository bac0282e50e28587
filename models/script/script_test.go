package script_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/models/script"
	"github.com/thea-harness/thea/schema"
)

func write(t *testing.T, name, body string) (schema.Model, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return schema.Model{Provider: "script", Script: name}, dir
}

func TestYAMLQueuesPerPurpose(t *testing.T) {
	cfg, dir := write(t, "turns.yaml", `
- text: looking
  reasoning: the mug may be in the kitchen
  tool_calls:
    - name: navigate_to
      arguments: {room: kitchen}
- purpose: compact
  text: checkpoint one
- text: done
`)
	m, err := script.New(cfg, dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	r1, err := m.Generate(ctx, model.Request{Purpose: model.PurposeDecide})
	if err != nil || r1.Text != "looking" || r1.Reasoning == "" || len(r1.ToolCalls) != 1 || r1.ToolCalls[0].Name != "navigate_to" {
		t.Fatalf("first decide = %+v, %v", r1, err)
	}
	var args map[string]string
	if err := json.Unmarshal(r1.ToolCalls[0].Arguments, &args); err != nil || args["room"] != "kitchen" {
		t.Fatalf("arguments %s (%v)", r1.ToolCalls[0].Arguments, err)
	}
	c, err := m.Generate(ctx, model.Request{Purpose: model.PurposeCompact})
	if err != nil || c.Text != "checkpoint one" {
		t.Fatalf("compact = %+v, %v", c, err)
	}
	r2, err := m.Generate(ctx, model.Request{Purpose: model.PurposeDecide})
	if err != nil || r2.Text != "done" || len(r2.ToolCalls) != 0 {
		t.Fatalf("second decide = %+v, %v", r2, err)
	}
	_, err = m.Generate(ctx, model.Request{Purpose: model.PurposeDecide})
	if err == nil || !strings.Contains(err.Error(), "turns.yaml") || !strings.Contains(err.Error(), "no decide response left") {
		t.Fatalf("exhausted queue error = %v", err)
	}
	if _, err := m.Generate(ctx, model.Request{Purpose: model.PurposeEvaluate}); err == nil || !strings.Contains(err.Error(), "evaluate") {
		t.Fatalf("empty evaluate queue error = %v", err)
	}
}

func TestJSONL(t *testing.T) {
	cfg, dir := write(t, "turns.jsonl", `{"tool_calls":[{"name":"pick_up","arguments":{"object_name":"mug"}}]}
# comments and blank lines are skipped

{"purpose":"consolidate","text":"{\"memory\":[]}"}
{"text":"all done"}
`)
	m, err := script.New(cfg, dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.Generate(t.Context(), model.Request{Purpose: model.PurposeConsolidate})
	if err != nil || r.Text != `{"memory":[]}` {
		t.Fatalf("consolidate = %+v, %v", r, err)
	}
	if m.(*script.Model).Remaining(model.PurposeDecide) != 2 {
		t.Fatal("want two decide turns queued")
	}
}

func TestParseErrorsNameFileAndEntry(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"bad.yaml", "- text: ok\n- txet: typo\n", "bad.yaml: entry 1"},
		{"bad.yaml", "- purpose: dream\n", `entry 0: unknown purpose "dream"`},
		{"bad.yaml", "- tool_calls: [{arguments: {}}]\n", "entry 0: tool_calls[0] has no name"},
		{"bad.yaml", "text: not a list\n", "bad.yaml: not a YAML list"},
		{"bad.jsonl", "{\"text\":\"a\"}\n{\"text\": 3}\n", "bad.jsonl: entry 1 (line 2)"},
		{"bad.jsonl", "{\"text\":\"a\",\"extra\":1}\n", "entry 0 (line 1)"},
	}
	for _, tc := range cases {
		cfg, dir := write(t, tc.name, tc.body)
		_, err := script.New(cfg, dir)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error = %v, want %q", tc.body, err, tc.want)
		}
	}
	if _, err := script.New(schema.Model{Provider: "script"}, t.TempDir()); err == nil {
		t.Error("a script provider without a file must fail")
	}
	if _, err := script.New(schema.Model{Provider: "script", Script: "missing.yaml"}, t.TempDir()); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("missing file error = %v", err)
	}
}

func TestRegisterAndFromResponses(t *testing.T) {
	c := engine.NewComponents()
	if err := c.Add(script.Provider()); err != nil {
		t.Fatal(err)
	}
	if err := c.Add(script.Provider()); err == nil {
		t.Fatal("registering twice must fail")
	}
	cfg, dir := write(t, "s.yaml", "- text: hi\n")
	m, err := c.NewModel(cfg, dir)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := m.Generate(t.Context(), model.Request{}); err != nil || r.Text != "hi" {
		t.Fatalf("default purpose is decide: %+v, %v", r, err)
	}
	f := script.FromResponses(model.Response{Text: "a"}, model.Response{Text: "b"})
	for _, want := range []string{"a", "b"} {
		if r, err := f.Generate(t.Context(), model.Request{Purpose: model.PurposeDecide}); err != nil || r.Text != want {
			t.Fatalf("FromResponses = %+v, %v; want %q", r, err, want)
		}
	}
}
