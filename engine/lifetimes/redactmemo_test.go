package lifetimes

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/redact"
	"github.com/thea-harness/thea/world"
)

// sameMessage and copyMessage must know every field: a field added to a
// message, a part, a call or a tool definition and not compared would let a
// changed message take the redacted form of the one before.
func TestSameMessageComparesEveryField(t *testing.T) {
	known := map[reflect.Type][]string{
		reflect.TypeFor[model.Message]():  {"Role", "Parts", "ToolCalls", "ToolCallID", "Name", "Meta", "CacheBreakpoint", "IsError"},
		reflect.TypeFor[model.Part]():     {"Text", "Image"},
		reflect.TypeFor[model.ToolCall](): {"ID", "Name", "Arguments", "WireName", "Extra"},
		reflect.TypeFor[model.ToolDef]():  {"Name", "Description", "InputSchema"},
	}
	for typ, names := range known {
		var got []string
		for f := range typ.Fields() {
			got = append(got, f.Name)
		}
		if !slices.Equal(got, names) {
			t.Errorf("%s has fields %v; sameMessage, sameTools and copyMessage compare and copy %v: follow the change there, then here", typ, got, names)
		}
	}
	base := func() model.Message {
		return model.Message{Role: model.RoleAssistant, Parts: []model.Part{{Text: "a"}}, ToolCallID: "c", Name: "n",
			ToolCalls: []model.ToolCall{{ID: "i", Name: "move", Arguments: json.RawMessage(`{"x":1}`), WireName: "w", Extra: json.RawMessage(`{}`)}},
			Meta:      map[string]string{"k": "v"}}
	}
	changes := map[string]func(m *model.Message){
		"Role":            func(m *model.Message) { m.Role = model.RoleUser },
		"Parts":           func(m *model.Message) { m.Parts = append(m.Parts, model.Part{}) },
		"Parts nil":       func(m *model.Message) { m.Parts = nil },
		"Parts.Text":      func(m *model.Message) { m.Parts[0].Text = "b" },
		"Parts.Image":     func(m *model.Message) { m.Parts[0].Image = &world.Image{} },
		"ToolCalls":       func(m *model.Message) { m.ToolCalls = append(m.ToolCalls, model.ToolCall{}) },
		"ToolCalls empty": func(m *model.Message) { m.ToolCalls = m.ToolCalls[:0] },
		"ToolCallID":      func(m *model.Message) { m.ToolCallID = "d" },
		"Name":            func(m *model.Message) { m.Name = "o" },
		"Meta":            func(m *model.Message) { m.Meta["k"] = "w" },
		"Meta nil":        func(m *model.Message) { m.Meta = nil },
		"CacheBreakpoint": func(m *model.Message) { m.CacheBreakpoint = true },
		"IsError":         func(m *model.Message) { m.IsError = true },
		"ToolCalls.ID":    func(m *model.Message) { m.ToolCalls[0].ID = "j" },
		"ToolCalls.Name":  func(m *model.Message) { m.ToolCalls[0].Name = "turn" },
		"ToolCalls.Arguments in place": func(m *model.Message) {
			m.ToolCalls[0].Arguments[5] = '2'
		},
		"ToolCalls.WireName": func(m *model.Message) { m.ToolCalls[0].WireName = "v" },
		"ToolCalls.Extra":    func(m *model.Message) { m.ToolCalls[0].Extra = nil },
	}
	for name, change := range changes {
		m := base()
		sent := copyMessage(&m)
		if !sameMessage(&sent, &m) {
			t.Fatalf("%s: a copy differs from its message", name)
		}
		change(&m)
		if sameMessage(&sent, &m) {
			t.Errorf("%s: a changed message reads as the same", name)
		}
	}
	tools := []model.ToolDef{{Name: "move", Description: "d", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	sent := copyTools(tools)
	tools[0].InputSchema[2] = 'T'
	if sameTools(sent, tools) {
		t.Error("a tool schema changed in place reads as the same")
	}
}

// The memo's redaction is the whole request's, request after request of a
// session that grows, compacts, changes messages (in place too), and sends
// secrets anywhere a message can hold one.
func TestRequestMemoRedactsAsTheWholeRequest(t *testing.T) {
	secrets := []string{"sk-live-0123456789", "hunter2"}
	r := redact.New(secrets, []*regexp.Regexp{regexp.MustCompile(`pw-[0-9]+`)})
	rng := rand.New(rand.NewPCG(20, 2))
	text := func() string {
		words := []string{"move", "the", "mug", "sk-live-0123456789", "hunter2", "pw-42", "drawer", "é", `"q"`}
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(' ')
		}
		return b.String()
	}
	message := func() model.Message {
		m := model.Message{Role: []model.Role{model.RoleUser, model.RoleAssistant, model.RoleTool}[rng.IntN(3)]}
		for range rng.IntN(3) {
			p := model.Part{Text: text()}
			if rng.IntN(8) == 0 {
				p.Image = &world.Image{Camera: text(), MIME: "image/png", Width: 2, Height: 2, Data: []byte{1, 2}}
			}
			m.Parts = append(m.Parts, p)
		}
		if rng.IntN(3) == 0 {
			args, _ := json.Marshal(map[string]any{"s": text(), text(): rng.IntN(5)})
			m.ToolCalls = []model.ToolCall{{ID: "c" + strconv.Itoa(rng.IntN(9)), Name: "move", Arguments: args}}
		}
		if rng.IntN(5) == 0 {
			m.Meta = map[string]string{text(): text()}
		}
		m.Name, m.ToolCallID = text(), text()
		m.IsError, m.CacheBreakpoint = rng.IntN(4) == 0, rng.IntN(4) == 0
		return m
	}
	var memo RequestMemo
	var msgs []model.Message
	tools := []model.ToolDef{{Name: "move", Description: "no secrets here", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	for step := range 3000 {
		switch k := rng.IntN(10); {
		case k < 5:
			msgs = append(msgs, message())
		case k == 5 && len(msgs) > 4: // compaction: a checkpoint, then the tail
			cut := rng.IntN(len(msgs))
			msgs = append([]model.Message{message()}, msgs[cut:]...)
		case k == 6 && len(msgs) > 0: // changed in place, the array shared
			m := &msgs[rng.IntN(len(msgs))]
			if len(m.Parts) > 0 {
				m.Parts[0].Text = text()
			} else if len(m.ToolCalls) > 0 && len(m.ToolCalls[0].Arguments) > 2 {
				m.ToolCalls[0].Arguments = json.RawMessage(`{"s":"` + text() + `"}`)
			}
		case k == 7 && len(msgs) > 0: // replaced by an equal copy, or another
			i := rng.IntN(len(msgs))
			if rng.IntN(2) == 0 {
				msgs[i] = copyMessage(&msgs[i])
			} else {
				msgs[i] = message()
			}
		case k == 8:
			tools = copyTools(tools)
			tools[0].Description = text()
		}
		req := model.Request{Purpose: model.PurposeDecide, Messages: msgs, Tools: tools}
		before, _ := json.Marshal(req)
		want := redact.Value(r, req)
		got, release := memo.Redact(r, req)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d: the memo's redaction differs from the request's", step)
		}
		enc, _ := json.Marshal(got)
		for _, s := range append(secrets, "pw-42") {
			if strings.Contains(string(enc), s) {
				t.Fatalf("step %d: %q left in the redacted request", step, s)
			}
		}
		if after, _ := json.Marshal(req); string(after) != string(before) {
			t.Fatalf("step %d: redaction changed the caller's request", step)
		}
		release()
	}
}

// A second decide call while the first holds the memo's array gets an
// array of its own.
func TestRequestMemoOverlappingCalls(t *testing.T) {
	r := redact.New([]string{"hunter2"}, nil)
	var memo RequestMemo
	req := model.Request{Messages: []model.Message{userText("a hunter2"), userText("b")}}
	first, release1 := memo.Redact(r, req)
	second, release2 := memo.Redact(r, req)
	if &first.Messages[0] == &second.Messages[0] {
		t.Fatal("overlapping calls share one array")
	}
	release2()
	release1()
	if none, _ := memo.Redact(r, model.Request{Purpose: model.PurposeDecide}); !reflect.DeepEqual(none, redact.Value(r, model.Request{Purpose: model.PurposeDecide})) {
		t.Fatalf("a request without messages: %+v", none)
	}
	third, release3 := memo.Redact(r, req)
	defer release3()
	if &third.Messages[0] != &first.Messages[0] {
		t.Fatal("the array is not reused once returned")
	}
	if third.Messages[0].Text() != "a [redacted]" {
		t.Fatalf("redacted %q", third.Messages[0].Text())
	}
}
