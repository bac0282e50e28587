package script

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/readfile"
	"github.com/thea-harness/thea/schema"
)

// Entry is one scripted model turn. Purpose defaults to "decide".
type Entry struct {
	Purpose   model.Purpose `yaml:"purpose" json:"purpose,omitempty"`
	Text      string        `yaml:"text" json:"text,omitempty"`
	Reasoning string        `yaml:"reasoning" json:"reasoning,omitempty"`
	ToolCalls []Call        `yaml:"tool_calls" json:"tool_calls,omitempty"`
}

// Call is one scripted tool call.
type Call struct {
	Name      string         `yaml:"name" json:"name"`
	Arguments map[string]any `yaml:"arguments" json:"arguments,omitempty"`
}

// Model answers each request with the next entry of its purpose's queue.
// It is safe for concurrent use (the evaluator may share it with the loop).
type Model struct {
	source string
	mu     sync.Mutex
	queues map[model.Purpose][]model.Response
	used   map[model.Purpose]int
}

var _ model.Model = (*Model)(nil)

// Provider is the "script" model provider: a file of scripted model turns,
// one queue per purpose.
func Provider() engine.ProviderKind {
	return engine.ProviderKind{
		Name: "script",
		Doc:  "scripted model turns from a file (tests, demos, CI)",
		Validate: func(c *schema.Check) {
			m := c.Section.(*schema.Model)
			if m.Script == "" {
				c.ErrorfAtKey(".provider", "provider %q needs script: the file of model turns", m.Provider)
				return
			}
			c.File(".script", m.Script, readfile.Script)
		},
		New: New,
	}
}

// New loads the script file cfg.Script (relative to dir). Files ending in
// .jsonl hold one entry per line; anything else is a YAML list of entries.
func New(cfg schema.Model, dir string) (model.Model, error) {
	if cfg.Script == "" {
		return nil, errors.New("script provider: model.script names no file")
	}
	path := schema.ResolvePath(dir, cfg.Script)
	// A provider is built without a context (engine.ProviderKind.New); the
	// reader refuses anything but a regular file within the limit, so the
	// read cannot wait.
	b, err := readfile.Read(context.Background(), path, readfile.Script)
	if err != nil {
		return nil, fmt.Errorf("script provider: %w", err)
	}
	var entries []Entry
	if strings.HasSuffix(path, ".jsonl") {
		entries, err = parseJSONL(path, b)
	} else {
		entries, err = parseYAML(path, b)
	}
	if err != nil {
		return nil, err
	}
	return FromEntries(path, entries...)
}

func parseYAML(path string, b []byte) ([]Entry, error) {
	var nodes []yaml.Node
	if err := yaml.Unmarshal(b, &nodes); err != nil {
		return nil, fmt.Errorf("%s: not a YAML list of model turns: %w", path, err)
	}
	entries := make([]Entry, 0, len(nodes))
	for i := range nodes {
		var e Entry
		// Decode through KnownFields so a misspelt key is an error, not a
		// silently empty turn.
		raw, err := yaml.Marshal(&nodes[i])
		if err != nil {
			return nil, fmt.Errorf("%s: entry %d: %w", path, i, err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(raw))
		dec.KnownFields(true)
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("%s: entry %d (line %d): %w", path, i, nodes[i].Line, err)
		}
		entries = append(entries, e)
	}
	return entries, nil
}

func parseJSONL(path string, b []byte) ([]Entry, error) {
	var entries []Entry
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		var e Entry
		dec := json.NewDecoder(strings.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("%s: entry %d (line %d): %w", path, len(entries), line, err)
		}
		if _, err := dec.Token(); !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: entry %d (line %d): trailing data after the JSON object", path, len(entries), line)
		}
		entries = append(entries, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return entries, nil
}

// FromEntries builds a script from entries; source names it in errors.
func FromEntries(source string, entries ...Entry) (*Model, error) {
	m := &Model{source: source, queues: map[model.Purpose][]model.Response{}, used: map[model.Purpose]int{}}
	for i, e := range entries {
		p := e.Purpose
		if p == "" {
			p = model.PurposeDecide
		}
		switch p {
		case model.PurposeDecide, model.PurposeCompact, model.PurposeConsolidate, model.PurposeEvaluate:
		default:
			return nil, fmt.Errorf("%s: entry %d: unknown purpose %q (want decide, compact, consolidate or evaluate)", source, i, p)
		}
		r := model.Response{Text: e.Text, Reasoning: e.Reasoning}
		for j, c := range e.ToolCalls {
			if c.Name == "" {
				return nil, fmt.Errorf("%s: entry %d: tool_calls[%d] has no name", source, i, j)
			}
			args := c.Arguments
			if args == nil {
				args = map[string]any{}
			}
			raw, err := json.Marshal(args)
			if err != nil {
				return nil, fmt.Errorf("%s: entry %d: tool_calls[%d].arguments: %w", source, i, j, err)
			}
			r.ToolCalls = append(r.ToolCalls, model.ToolCall{
				ID: fmt.Sprintf("call_%d_%d", i, j), Name: c.Name, Arguments: raw,
			})
		}
		m.queues[p] = append(m.queues[p], r)
	}
	return m, nil
}

// FromResponses builds a script of decide responses, in order.
func FromResponses(rs ...model.Response) *Model {
	m := &Model{source: "inline script", queues: map[model.Purpose][]model.Response{}, used: map[model.Purpose]int{}}
	m.queues[model.PurposeDecide] = append([]model.Response(nil), rs...)
	return m
}

// Generate returns the next scripted response for req.Purpose; an exhausted
// queue is an error naming the file and the purpose.
func (m *Model) Generate(ctx context.Context, req model.Request) (model.Response, error) {
	if err := ctx.Err(); err != nil {
		return model.Response{}, fmt.Errorf("script %s: %w", m.source, err)
	}
	p := req.Purpose
	if p == "" {
		p = model.PurposeDecide
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	q := m.queues[p]
	if len(q) == 0 {
		return model.Response{}, fmt.Errorf("script %s: no %s response left (%d consumed)", m.source, p, m.used[p])
	}
	r := q[0]
	m.queues[p] = q[1:]
	m.used[p]++
	return r, nil
}

// Remaining reports how many responses of a purpose are still queued.
func (m *Model) Remaining(p model.Purpose) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.queues[p])
}
