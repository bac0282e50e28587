package human_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/models/human"
	"github.com/thea-harness/thea/world"
)

// console answers each question with the next line and keeps what was shown.
type console struct {
	lines []string
	out   strings.Builder
}

func (c *console) Printf(format string, a ...any) error {
	fmt.Fprintf(&c.out, format, a...)
	return nil
}

func (c *console) Ask(_ context.Context, q engine.Question) (string, error) {
	if len(c.lines) == 0 {
		return "", fmt.Errorf("no more input")
	}
	l := c.lines[0]
	c.lines = c.lines[1:]
	fmt.Fprintf(&c.out, "? %s\n> %s\n", q.Text, l)
	return l, nil
}

var tools = []model.ToolDef{
	{Name: "move", Description: "Move.\nMore.", InputSchema: json.RawMessage(`{"type":"object","properties":{"d":{"type":"number"}},"required":["d"]}`)},
	{Name: "look", Description: "Look around."},
}

func TestMoves(t *testing.T) {
	for _, tc := range []struct {
		lines      []string
		want       string // the response: tool call or text
		complaints []string
	}{
		{[]string{`move {"d": 1.5}`}, `move {"d":1.5}`, nil},
		{[]string{"2"}, "look {}", nil},
		{[]string{"/final all done"}, "text: all done", nil},
		{[]string{"", "/final", "jump {}", `move {"d": "far"}`, `move {"e": 1}`, `move {"d": 1`, `move [1]`, `move {"d": 2}`}, `move {"d":2}`, []string{
			"type TOOL {JSON arguments}, or /final TEXT",
			"/final needs the report text",
			`no tool "jump": the tools are move, look`,
			`argument "d" must be number, got string`,
			`missing required argument "d"`,
			"not valid JSON",
			"must be a JSON object, got an array",
		}},
	} {
		c := &console{lines: tc.lines}
		resp, err := human.New(c).Generate(t.Context(), model.Request{Purpose: model.PurposeDecide, Tools: tools,
			Messages: []model.Message{{Role: model.RoleSystem, Parts: []model.Part{{Text: "You are a robot."}}},
				{Role: model.RoleUser, Parts: []model.Part{{Text: "Instruction: go"}, {Image: &world.Image{Camera: "head", MIME: "image/png", Width: 4, Height: 3}}}}}})
		if err != nil {
			t.Fatalf("%v: %v\n%s", tc.lines, err, c.out.String())
		}
		got := "text: " + resp.Text
		if len(resp.ToolCalls) > 0 {
			got = resp.ToolCalls[0].Name + " " + string(resp.ToolCalls[0].Arguments)
		}
		if got != tc.want {
			t.Errorf("%v: %q, want %q", tc.lines, got, tc.want)
		}
		out := c.out.String()
		for _, w := range append(tc.complaints, "You are a robot.", "[image: head camera, image/png, 4x3]", "1) move — Move.", "2) look — Look around.") {
			if !strings.Contains(out, w) {
				t.Errorf("%v: the terminal does not show %q:\n%s", tc.lines, w, out)
			}
		}
		if strings.Count(out, "✗") != len(tc.complaints) {
			t.Errorf("%v: %d refusals shown, want %d:\n%s", tc.lines, strings.Count(out, "✗"), len(tc.complaints), out)
		}
	}
}

// Another purpose's request is shown whole and answered with one line; the
// person is told an evaluation is hidden from the acting model.
func TestOtherPurposes(t *testing.T) {
	c := &console{lines: []string{`{"status":"success"}`}}
	resp, err := human.New(c).Generate(t.Context(), model.Request{Purpose: model.PurposeEvaluate,
		Messages: []model.Message{{Role: model.RoleUser, Parts: []model.Part{{Text: "Post-condition: the drawer is closed."}}}}})
	if err != nil || resp.Text != `{"status":"success"}` {
		t.Fatalf("%+v %v", resp, err)
	}
	out := c.out.String()
	if !strings.Contains(out, "Post-condition: the drawer is closed.") || !strings.Contains(out, "the acting model never sees this request") {
		t.Errorf("shown:\n%s", out)
	}
}

// A message the person was shown is not shown again when only its cache
// breakpoint moved (it moves to the newest message before the Refreshed
// tail each turn); the tail, new each turn, is.
func TestMovedBreakpointIsNotNew(t *testing.T) {
	c := &console{lines: []string{"2", "2"}}
	m := human.New(c)
	sys := model.Message{Role: model.RoleSystem, Parts: []model.Part{{Text: "You are a robot."}}, CacheBreakpoint: true}
	instr := model.Message{Role: model.RoleUser, Parts: []model.Part{{Text: "Instruction: go"}}, CacheBreakpoint: true}
	tail := func(n int) model.Message {
		return model.Message{Role: model.RoleUser, Parts: []model.Part{{Text: fmt.Sprintf("Observation (turn %d): clear", n)}}}
	}
	if _, err := m.Generate(t.Context(), model.Request{Purpose: model.PurposeDecide, Tools: tools,
		Messages: []model.Message{sys, instr, tail(1)}}); err != nil {
		t.Fatal(err)
	}
	c.out.Reset()
	call := model.Message{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: "c1", Name: "look", Arguments: json.RawMessage(`{}`)}}}
	result := model.Message{Role: model.RoleTool, ToolCallID: "c1", Name: "look", Parts: []model.Part{{Text: `{"success":true}`}}, CacheBreakpoint: true}
	instr.CacheBreakpoint = false
	if _, err := m.Generate(t.Context(), model.Request{Purpose: model.PurposeDecide, Tools: tools,
		Messages: []model.Message{sys, instr, call, result, tail(2)}}); err != nil {
		t.Fatal(err)
	}
	out := c.out.String()
	if strings.Contains(out, "Instruction: go") || !strings.Contains(out, "(1 messages shown before)") || !strings.Contains(out, "Observation (turn 2)") {
		t.Fatalf("the second turn shows:\n%s", out)
	}
}
