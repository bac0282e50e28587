package human

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/termesc"
	"github.com/thea-harness/thea/schema"
)

// Console is the terminal the person sits at: the process's shared
// terminal (channels.Terminal), whose line router hands the person's
// lines to the provider's questions before the session's instruction reader.
type Console interface {
	Printf(format string, a ...any) error
	Ask(ctx context.Context, q engine.Question) (string, error)
}

// Provider is the "human" model provider on a console.
func Provider(c Console) engine.ProviderKind {
	return engine.ProviderKind{
		Name: "human",
		Doc:  "a person at the terminal plays the model (debugging, recording a reference episode by hand)",
		Validate: func(c *schema.Check) {
			if m := c.Section.(*schema.Model); m.Script != "" {
				c.Warnf(".script", "provider %q reads no script: the person at the terminal answers", m.Provider)
			}
		},
		New: func(schema.Model, string) (model.Model, error) {
			if c == nil {
				return nil, errors.New("human provider: no terminal")
			}
			return New(c), nil
		},
	}
}

// Model asks the person at the console for each response.
type Model struct {
	c  Console
	mu sync.Mutex // one person answers one request at a time
	// seen holds the digests of the messages the person has been shown
	// (Refreshed context is replaced every turn, compaction rewrites the
	// rest: only what is new is shown again); resident is the digest of
	// the Resident message last shown.
	seen     map[[32]byte]bool
	resident [32]byte
}

var _ model.Model = (*Model)(nil)

// New returns a human model on c.
func New(c Console) *Model { return &Model{c: c, seen: map[[32]byte]bool{}} }

// messageKey identifies a message's content. The cache breakpoint is left
// out: it moves to the newest message of each request, and a message does
// not become new to the person by losing it.
func messageKey(m model.Message) [32]byte {
	m.CacheBreakpoint = false
	b, _ := json.Marshal(m) // a message always encodes
	return sha256.Sum256(b)
}

// Generate shows the request and reads the person's response.
func (m *Model) Generate(ctx context.Context, req model.Request) (model.Response, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if req.Purpose == "" || req.Purpose == model.PurposeDecide {
		return m.decide(ctx, req)
	}
	return m.answer(ctx, req)
}

// decide shows the context (new messages only; the Resident message when
// it changed) and the tools, then reads a move until one is valid.
func (m *Model) decide(ctx context.Context, req model.Request) (model.Response, error) {
	var b strings.Builder
	msgs := req.Messages
	b.WriteString("\n═══ Your turn: you are the model\n")
	if len(msgs) > 0 && msgs[0].Role == model.RoleSystem {
		sum := sha256.Sum256([]byte(msgs[0].Text()))
		if sum != m.resident {
			b.WriteString("═══ Resident\n")
			writeMessage(&b, msgs[0])
			m.resident = sum
		} else {
			fmt.Fprintf(&b, "═══ Resident: unchanged (%d characters)\n", len(msgs[0].Text()))
		}
		msgs = msgs[1:]
	}
	var fresh []model.Message
	for _, msg := range msgs {
		if k := messageKey(msg); !m.seen[k] {
			m.seen[k] = true
			fresh = append(fresh, msg)
		}
	}
	if n := len(msgs) - len(fresh); n > 0 {
		fmt.Fprintf(&b, "═══ Conversation: what is new (%d messages shown before)\n", n)
	} else {
		b.WriteString("═══ Conversation\n")
	}
	for _, msg := range fresh {
		writeMessage(&b, msg)
	}
	checkers := map[string]*engine.ArgumentChecker{}
	names := make([]string, 0, len(req.Tools))
	fmt.Fprintf(&b, "═══ Tools (%d)\n", len(req.Tools))
	for i, t := range req.Tools {
		c, err := engine.NewArgumentChecker(t.Name, t.InputSchema)
		if err != nil {
			return model.Response{}, fmt.Errorf("human provider: %w", err)
		}
		checkers[t.Name] = c
		names = append(names, t.Name)
		fmt.Fprintf(&b, "%3d) %s — %s\n     arguments: %s\n", i+1, termesc.Escape(t.Name), termesc.Escape(firstLine(t.Description)), termesc.Escape(string(t.InputSchema)))
	}
	b.WriteString("Type TOOL {JSON arguments} (a tool's name or number), or /final TEXT to end the task with TEXT as the report.\n")
	if err := m.c.Printf("%s", b.String()); err != nil {
		return model.Response{}, fmt.Errorf("human provider: %w", err)
	}
	for {
		line, err := m.c.Ask(ctx, engine.Question{Text: "your move"})
		if err != nil {
			return model.Response{}, fmt.Errorf("human provider: %w", err)
		}
		resp, problem := parseMove(strings.TrimSpace(line), names, checkers)
		if problem == "" {
			return resp, nil
		}
		if err := m.c.Printf("✗ %s\n", termesc.Escape(problem)); err != nil {
			return model.Response{}, fmt.Errorf("human provider: %w", err)
		}
	}
}

// parseMove reads one move; a problem is said in words for a retry.
func parseMove(line string, names []string, checkers map[string]*engine.ArgumentChecker) (model.Response, string) {
	if text, ok := strings.CutPrefix(line, "/final"); ok {
		text = strings.TrimSpace(text)
		if text == "" {
			return model.Response{}, "/final needs the report text: /final TEXT"
		}
		return model.Response{Text: text}, ""
	}
	if line == "" {
		return model.Response{}, "type TOOL {JSON arguments}, or /final TEXT"
	}
	name, args, _ := strings.Cut(line, " ")
	if n, err := strconv.Atoi(name); err == nil && n >= 1 && n <= len(names) {
		name = names[n-1]
	}
	c, ok := checkers[name]
	if !ok {
		return model.Response{}, fmt.Sprintf("no tool %q: the tools are %s", name, strings.Join(names, ", "))
	}
	args = strings.TrimSpace(args)
	if err := c.Check(args); err != nil {
		return model.Response{}, err.Error() + " — try again"
	}
	if args == "" {
		args = "{}"
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(args)); err != nil {
		return model.Response{}, "the arguments are not valid JSON: " + err.Error()
	}
	return model.Response{ToolCalls: []model.ToolCall{{Name: name, Arguments: json.RawMessage(compact.Bytes())}}}, ""
}

// answer shows a request of another purpose (an evaluation, a compaction,
// a consolidation) in full and reads one line as the response's text.
func (m *Model) answer(ctx context.Context, req model.Request) (model.Response, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "\n═══ A %s call: you answer it as the %s model\n", req.Purpose, req.Purpose)
	if req.Purpose == model.PurposeEvaluate {
		b.WriteString("(the acting model never sees this request: it holds the post-condition)\n")
	}
	for _, msg := range req.Messages {
		writeMessage(&b, msg)
	}
	if err := m.c.Printf("%s", b.String()); err != nil {
		return model.Response{}, fmt.Errorf("human provider: %w", err)
	}
	line, err := m.c.Ask(ctx, engine.Question{Text: "your " + string(req.Purpose) + " answer (one line)"})
	if err != nil {
		return model.Response{}, fmt.Errorf("human provider: %w", err)
	}
	return model.Response{Text: strings.TrimSpace(line)}, nil
}
