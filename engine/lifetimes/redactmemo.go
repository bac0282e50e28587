package lifetimes

import (
	"bytes"
	"maps"
	"slices"
	"sync"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/redact"
)

// RequestMemo redacts the decide requests of a session without walking
// the whole request every turn: each request repeats the one before and
// adds a few messages, and walking every message for secrets was most of
// a long task's turn once a secret was declared (an API key is one).
//
// It keeps, for each position, a copy of the message sent there and its
// redacted form. A message equal to the copy, field by field and byte by
// byte (compared by content, never by identity, so a message changed in
// place is walked again), takes the redacted form; any other is walked
// and remembered. Redacting a message alone gives what redacting it inside
// the request gives (the walk has no state across elements; it is walked
// at the same depth, inside a request of its own). Messages with images
// are walked every time and not remembered: they are sent once.
type RequestMemo struct {
	mu    sync.Mutex
	r     *redact.Redactor
	msgs  []memoEntry
	tools memoTools
	buf   []model.Message // the last request's messages
	lent  bool            // buf is in a call that has not returned
}

type memoEntry struct {
	sent, out model.Message
	ok        bool
}

type memoTools struct {
	sent, out []model.ToolDef
	ok        bool
}

// Redact returns req as RedactRequest(r, req) returns it, and a release to
// call when the model call that sends it has returned.
func (m *RequestMemo) Redact(r *redact.Redactor, req model.Request) (model.Request, func()) {
	if !r.Active() {
		return req, func() {}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.r != r {
		m.r, m.msgs, m.tools = r, nil, memoTools{}
	}
	// A Purpose is a named string type, which the walk leaves as it is.
	out := model.Request{Purpose: req.Purpose}
	if req.Messages == nil {
		out.Tools = m.toolDefs(r, req.Tools)
		return out, func() {}
	}
	// The messages go in an array reused from request to request, as the
	// store reuses its own (a model keeps no part of a request past
	// Generate): unless a call still holds it, when a second decide call
	// overlaps the first (not the decide stage's way, but a stage's right).
	msgs := m.buf
	if m.lent {
		msgs = nil
	}
	msgs = slices.Grow(msgs[:0], len(req.Messages))[:len(req.Messages)]
	for i := range req.Messages {
		msgs[i] = m.message(r, i, &req.Messages[i])
	}
	out.Messages = msgs[:len(req.Messages):len(req.Messages)]
	release := func() {}
	if !m.lent {
		m.buf, m.lent = msgs, true
		release = func() {
			m.mu.Lock()
			m.lent = false
			m.mu.Unlock()
		}
	}
	if len(m.msgs) > len(req.Messages) {
		clear(m.msgs[len(req.Messages):])
		m.msgs = m.msgs[:len(req.Messages)]
	}
	out.Tools = m.toolDefs(r, req.Tools)
	return out, release
}

func (m *RequestMemo) message(r *redact.Redactor, i int, msg *model.Message) model.Message {
	for i >= len(m.msgs) {
		m.msgs = append(m.msgs, memoEntry{})
	}
	e := &m.msgs[i]
	if e.ok && sameMessage(&e.sent, msg) {
		return e.out
	}
	if hasImage(msg) {
		*e = memoEntry{}
		return RedactRequest(r, model.Request{Messages: []model.Message{*msg}}).Messages[0]
	}
	// The redacted form is made from a copy of its own: what the memo hands
	// out shares nothing with the caller's message, nor with the copy it
	// compares against, whatever either does with its arrays later.
	red := RedactRequest(r, model.Request{Messages: []model.Message{copyMessage(msg)}}).Messages[0]
	*e = memoEntry{sent: copyMessage(msg), out: red, ok: true}
	return red
}

func (m *RequestMemo) toolDefs(r *redact.Redactor, tools []model.ToolDef) []model.ToolDef {
	t := &m.tools
	if t.ok && sameTools(t.sent, tools) {
		return t.out
	}
	out := redact.Value(r, model.Request{Tools: copyTools(tools)}).Tools
	*t = memoTools{sent: copyTools(tools), out: out, ok: true}
	return out
}

func copyTools(tools []model.ToolDef) []model.ToolDef {
	if tools == nil {
		return nil
	}
	c := make([]model.ToolDef, len(tools))
	for i, d := range tools {
		c[i] = d
		c[i].InputSchema = bytes.Clone(d.InputSchema)
	}
	return c
}

func hasImage(m *model.Message) bool {
	for _, p := range m.Parts {
		if p.Image != nil {
			return true
		}
	}
	return false
}

// copyMessage copies m deep enough that a later change to m, in place or
// not, makes sameMessage false: strings are shared (they cannot change),
// slices, byte slices and the map are copied. m has no images.
func copyMessage(m *model.Message) model.Message {
	c := *m
	c.Parts = slices.Clone(m.Parts)
	c.ToolCalls = slices.Clone(m.ToolCalls)
	for i := range c.ToolCalls {
		c.ToolCalls[i].Arguments = bytes.Clone(c.ToolCalls[i].Arguments)
		c.ToolCalls[i].Extra = bytes.Clone(c.ToolCalls[i].Extra)
	}
	c.Meta = maps.Clone(m.Meta)
	return c
}

// sameMessage reports whether b has every field of a, by content. a is a
// copy made by copyMessage (no images); a change to model.Message's fields
// must be followed here (TestSameMessageComparesEveryField).
func sameMessage(a, b *model.Message) bool {
	if a.Role != b.Role || a.ToolCallID != b.ToolCallID || a.Name != b.Name ||
		a.CacheBreakpoint != b.CacheBreakpoint || a.IsError != b.IsError ||
		len(a.Parts) != len(b.Parts) || (a.Parts == nil) != (b.Parts == nil) ||
		len(a.ToolCalls) != len(b.ToolCalls) || (a.ToolCalls == nil) != (b.ToolCalls == nil) ||
		(a.Meta == nil) != (b.Meta == nil) || !maps.Equal(a.Meta, b.Meta) {
		return false
	}
	for i := range a.Parts {
		if a.Parts[i].Text != b.Parts[i].Text || a.Parts[i].Image != nil || b.Parts[i].Image != nil {
			return false
		}
	}
	for i := range a.ToolCalls {
		x, y := &a.ToolCalls[i], &b.ToolCalls[i]
		if x.ID != y.ID || x.Name != y.Name || x.WireName != y.WireName ||
			!sameBytes(x.Arguments, y.Arguments) || !sameBytes(x.Extra, y.Extra) {
			return false
		}
	}
	return true
}

func sameTools(a, b []model.ToolDef) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Description != b[i].Description || !sameBytes(a[i].InputSchema, b[i].InputSchema) {
			return false
		}
	}
	return true
}

// sameBytes is bytes.Equal that also tells nil from empty: the walk may
// treat them apart.
func sameBytes(a, b []byte) bool {
	return (a == nil) == (b == nil) && bytes.Equal(a, b)
}

// RedactRequest is redact.Value for a model request, with one rule more: a
// tool message's text is the result envelope's JSON, which spells &, <, >
// and some other characters as \u0026, \u003c, …, so a secret holding one
// is redacted there as JSON text (see redact.Redactor.JSONText).
func RedactRequest(r *redact.Redactor, req model.Request) model.Request {
	if !r.Active() {
		return req
	}
	out := redact.Value(r, req)
	cloned := false
	for i := range out.Messages {
		m := &out.Messages[i]
		if m.Role != model.RoleTool {
			continue
		}
		partsCloned := false
		for j, p := range m.Parts {
			t := r.JSONText(p.Text)
			if t == p.Text {
				continue
			}
			if !cloned {
				out.Messages = slices.Clone(out.Messages)
				m = &out.Messages[i]
				cloned = true
			}
			if !partsCloned {
				m.Parts = slices.Clone(m.Parts)
				partsCloned = true
			}
			m.Parts[j].Text = t
		}
	}
	return out
}
