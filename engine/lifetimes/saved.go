package lifetimes

import (
	"encoding/json"
	"fmt"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/redact"
)

// KeptEntry is one Accumulated entry as a session checkpoint keeps it on
// disk (see engine's checkpoint): enough to rebuild the entry in another
// process. A compaction checkpoint keeps the turns it covers and its
// summary, so a later compaction updates it as it would have.
type KeptEntry struct {
	Kind      Kind          `json:"kind"`
	Group     int           `json:"group"`
	Msg       model.Message `json:"msg"`
	Reasoning string        `json:"reasoning,omitempty"`
	First     int           `json:"first,omitempty"`
	Last      int           `json:"last,omitempty"`
	Summary   string        `json:"summary,omitempty"`
}

// Kept returns Accumulated context as a checkpoint keeps it. Images are
// not kept: a tool image not sent yet becomes a line saying it was lost
// with the process (images live for one model call; a resumed session
// observes afresh).
func (s *Store) Kept() []KeptEntry {
	out := make([]KeptEntry, len(s.acc))
	for i := range s.acc {
		out[i] = s.acc[i].keptEntry()
	}
	return out
}

func (e *entry) keptEntry() KeptEntry {
	msg := e.msg
	if e.pending {
		parts := make([]model.Part, 0, len(msg.Parts))
		for _, p := range msg.Parts {
			if p.Image != nil {
				p = model.Part{Text: "\n[image: not kept across a restart of the session]"}
			}
			parts = append(parts, p)
		}
		msg.Parts = parts
	}
	return KeptEntry{Kind: e.kind, Group: e.group, Msg: msg, Reasoning: e.reasoning,
		First: e.first, Last: e.last, Summary: e.summary}
}

// AppendKeptJSON appends Kept() encoded as a JSON array to b. Each
// entry's encoding is computed once and reused until the entry changes:
// a checkpoint per turn encodes only the turn's new entries. Each entry is
// redacted by r before it is encoded (r is the session's, the same every
// time, so the cached encoding stays redacted).
func (s *Store) AppendKeptJSON(b []byte, r *redact.Redactor) ([]byte, error) {
	b = append(b, '[')
	for i := range s.acc {
		e := &s.acc[i]
		if e.kept == nil {
			// Redacted as a value, before encoding: the walker knows which
			// fields hold JSON text (a tool call's arguments, kept as a JSON
			// string when the model's text was not JSON), which the encoded
			// document no longer says.
			enc, err := json.Marshal(redact.Value(r, e.keptEntry()))
			if err != nil {
				return b, fmt.Errorf("accumulated[%d]: %w", i, err)
			}
			e.kept = enc
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, e.kept...)
	}
	return append(b, ']'), nil
}

// LoadKept replaces Accumulated context with entries Kept returned (in
// another process). An entry of an unknown kind, or holding an image, is an
// error naming it: a checkpoint is read, not trusted.
func (s *Store) LoadKept(kept []KeptEntry) error {
	acc := make([]entry, 0, len(kept))
	tokens := 0
	for i, k := range kept {
		if k.Kind > KindCheckpoint {
			return fmt.Errorf("accumulated[%d]: unknown kind %d", i, k.Kind)
		}
		for _, p := range k.Msg.Parts {
			if p.Image != nil {
				return fmt.Errorf("accumulated[%d]: holds an image (a checkpoint keeps none)", i)
			}
		}
		e := entry{kind: k.Kind, group: k.Group, msg: k.Msg, reasoning: k.Reasoning,
			first: k.First, last: k.Last, summary: k.Summary}
		e.tokens = estimateMessage(&e.msg)
		e.sanitise()
		acc = append(acc, e)
		tokens += e.tokens
	}
	s.setAccumulated(acc, tokens)
	return nil
}
