package memory

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

// Scopes of a candidate.
const (
	ScopeMemory = "memory"
	ScopeTool   = "tool"
)

// MaxCandidates bounds one consolidation's output.
const MaxCandidates = 32

// Candidate is one entry the consolidation call proposes.
type Candidate struct {
	Scope      string  `json:"scope"`
	Tool       string  `json:"tool,omitempty"`
	Entry      string  `json:"entry"`
	Confidence float64 `json:"confidence"`
}

// rawCandidate has pointers so a missing field is told from a zero one.
type rawCandidate struct {
	Scope      *string  `json:"scope"`
	Tool       *string  `json:"tool"`
	Entry      *string  `json:"entry"`
	Confidence *float64 `json:"confidence"`
}

var fenceRE = regexp.MustCompile("(?s)```(?:json)?[ \\t]*\\r?\\n(.*?)```")

// jsonObject finds the one JSON object of a model's answer: the whole text,
// the content of a ```json fence, or the span from the first '{' to the
// last '}' when the model wrapped it in prose. Nothing looser.
func jsonObject(text string) ([]byte, error) {
	t := strings.TrimSpace(text)
	if t == "" {
		return nil, errors.New("the answer is empty")
	}
	if m := fenceRE.FindStringSubmatch(t); m != nil && !strings.HasPrefix(t, "{") {
		t = strings.TrimSpace(m[1])
	}
	if strings.HasPrefix(t, "[") {
		return nil, errors.New("the answer is a JSON list; it must be one JSON object")
	}
	i, j := strings.IndexByte(t, '{'), strings.LastIndexByte(t, '}')
	if i < 0 || j < i {
		return nil, fmt.Errorf("the answer holds no JSON object: %q", clip(t, 80))
	}
	return []byte(t[i : j+1]), nil
}

// decodeStrict decodes exactly one JSON value with no unknown fields.
func decodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("the answer is not the expected JSON object: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("something follows the JSON object (one object only)")
	}
	return nil
}

// parseCandidates reads and checks the consolidation answer. Any problem
// rejects the whole answer: a model that got one candidate wrong may have
// got the others wrong too.
func parseCandidates(text string, tools []string) ([]Candidate, error) {
	b, err := jsonObject(text)
	if err != nil {
		return nil, err
	}
	var out struct {
		Candidates *[]rawCandidate `json:"candidates"`
	}
	if err := decodeStrict(b, &out); err != nil {
		return nil, err
	}
	if out.Candidates == nil {
		return nil, errors.New(`the answer has no "candidates" list`)
	}
	raw := *out.Candidates
	if len(raw) > MaxCandidates {
		return nil, fmt.Errorf("the answer has %d candidates, the bound is %d", len(raw), MaxCandidates)
	}
	cs := make([]Candidate, 0, len(raw))
	for i, r := range raw {
		c, err := checkCandidate(r, tools)
		if err != nil {
			return nil, fmt.Errorf("candidate %d: %w", i+1, err)
		}
		cs = append(cs, c)
	}
	return cs, nil
}

func checkCandidate(r rawCandidate, tools []string) (Candidate, error) {
	var c Candidate
	switch {
	case r.Scope == nil:
		return c, errors.New(`"scope" is missing`)
	case r.Entry == nil:
		return c, errors.New(`"entry" is missing`)
	case r.Confidence == nil:
		return c, errors.New(`"confidence" is missing`)
	}
	c.Scope, c.Confidence = *r.Scope, *r.Confidence
	if c.Confidence < 0 || c.Confidence > 1 {
		return c, fmt.Errorf("confidence %v is outside 0..1", c.Confidence)
	}
	text, err := cleanText(*r.Entry)
	if err != nil {
		return c, err
	}
	c.Entry = text
	switch c.Scope {
	case ScopeMemory:
		if r.Tool != nil && *r.Tool != "" {
			return c, fmt.Errorf(`scope "memory" takes no tool (got %q)`, *r.Tool)
		}
	case ScopeTool:
		if r.Tool == nil || *r.Tool == "" {
			return c, errors.New(`scope "tool" needs a "tool"`)
		}
		c.Tool = *r.Tool
		if err := ValidToolName(c.Tool); err != nil {
			return c, err
		}
		if !slices.Contains(tools, c.Tool) {
			return c, fmt.Errorf("unknown tool %q (tools: %s)", c.Tool, strings.Join(tools, ", "))
		}
	default:
		return c, fmt.Errorf(`scope %q is neither "memory" nor "tool"`, c.Scope)
	}
	return c, nil
}

// merged is one entry of a merge answer.
type merged struct {
	Entry      *string  `json:"entry"`
	Confidence *float64 `json:"confidence"`
}

// parseMerge reads a merge answer for n entries: between 1 and n-1 entries.
func parseMerge(text string, n int) ([]merged, error) {
	b, err := jsonObject(text)
	if err != nil {
		return nil, err
	}
	var out struct {
		Entries *[]merged `json:"entries"`
	}
	if err := decodeStrict(b, &out); err != nil {
		return nil, err
	}
	if out.Entries == nil {
		return nil, errors.New(`the answer has no "entries" list`)
	}
	es := *out.Entries
	if len(es) == 0 || len(es) >= n {
		return nil, fmt.Errorf("the answer has %d entries; merging %d needs between 1 and %d", len(es), n, n-1)
	}
	for i, e := range es {
		switch {
		case e.Entry == nil:
			return nil, fmt.Errorf(`entry %d: "entry" is missing`, i+1)
		case e.Confidence == nil:
			return nil, fmt.Errorf(`entry %d: "confidence" is missing`, i+1)
		case *e.Confidence < 0 || *e.Confidence > 1:
			return nil, fmt.Errorf("entry %d: confidence %v is outside 0..1", i+1, *e.Confidence)
		}
		t, err := cleanText(*e.Entry)
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", i+1, err)
		}
		*es[i].Entry = t
	}
	return es, nil
}
