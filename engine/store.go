package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/schema"
)

// entryKind tells what an Accumulated entry holds.
type entryKind uint8

const (
	kindInstruction entryKind = iota
	kindNotes
	kindResponse
	kindToolResult
	kindCheckpoint
	// kindObservation is the Refreshed text a request stated (the
	// observation trail, see refreshed.go), kept where it was sent.
	kindObservation
)

// entry is one message of Accumulated context. Entries appended during one
// turn share its group: a group is a complete turn (a tool call and its
// result are never separated by compaction).
type entry struct {
	kind  entryKind
	group int
	msg   model.Message
	// reasoning is kept (bounded) for compaction inputs; it is not re-sent.
	reasoning string
	// pending images are sent with the next request only, then replaced by
	// placeholder text.
	pending bool
	tokens  int
	// first and last group a checkpoint covers, and its summary text.
	first, last int
	summary     string
	// clean is the message's text as compaction reads it (payloads
	// stripped, images as placeholders), and cleanArgs its calls'
	// arguments where they held a payload (nil: as they are): computed once,
	// when the message enters Accumulated context or changes there
	// (cleanOK), not at every compaction.
	clean     string
	cleanArgs []string
	cleanOK   bool
}

// sanitise computes the entry's text as compaction reads it.
func (e *entry) sanitise() {
	e.clean, e.cleanArgs, e.cleanOK = partsText(e.msg.Parts), nil, true
	for i, tc := range e.msg.ToolCalls {
		if mayHoldPayload(tc.Arguments) {
			if e.cleanArgs == nil {
				e.cleanArgs = make([]string, len(e.msg.ToolCalls))
			}
			e.cleanArgs[i] = replacePayloads(string(tc.Arguments))
		}
	}
}

// store is the context of one session in its three lifetimes.
type store struct {
	// Resident: one system message and the visible tool definitions.
	resident       model.Message
	residentTokens int
	tools          []model.ToolDef
	toolTokens     int

	// Refreshed: replaced before every model call. shownBrief and shownObs
	// are what the model was last sent of each (see refreshed.go);
	// rendered is the Refreshed text of the next request, valid while
	// renderedOK.
	brief, observation   piece
	obsImages            []schema.Image
	shownBrief, shownObs shownPiece
	rendered             model.Message
	renderedOK           bool

	// Accumulated. pending counts the entries holding images not sent yet.
	acc       []entry
	accTokens int
	pending   int

	// prefix is the Resident message and the messages of acc[:prefixN], as
	// a request starts (valid while prefixOK): appending to Accumulated
	// context extends it, anything else rebuilds it. A request is this
	// array, the Refreshed messages written after its end: requests are
	// not copied (see model.Model: a model keeps no part of its request).
	prefix   []model.Message
	prefixN  int
	prefixOK bool
}

func (s *store) setResident(text string, tools []model.ToolDef) {
	s.resident = model.Message{Role: model.RoleSystem, Parts: []model.Part{{Text: text}}}
	s.residentTokens = estimateMessage(&s.resident)
	s.tools = tools
	s.toolTokens = estimateTools(tools)
	s.prefixOK = false
}

func (s *store) append(e entry) {
	e.tokens = estimateMessage(&e.msg)
	e.sanitise()
	if e.pending {
		s.pending++
	}
	s.acc = append(s.acc, e)
	s.accTokens += e.tokens
}

func (s *store) clearAccumulated() {
	s.setAccumulated(nil, 0)
}

// setAccumulated installs acc (its estimate accTokens) as it is.
func (s *store) setAccumulated(acc []entry, accTokens int) {
	s.acc, s.accTokens, s.pending = acc, accTokens, 0
	for i := range acc {
		if acc[i].pending {
			s.pending++
		}
	}
	s.prefixOK = false
	s.resetShown()
}

// replaceAccumulated installs a compacted Accumulated context. The
// observation trail before the checkpoint is summarised, so the next
// request states the Refreshed context in full; the latest Task Notes
// snapshot becomes notes, the complete Task Notes (the earlier snapshots it
// updated may be summarised).
func (s *store) replaceAccumulated(acc []entry, notes string) {
	for i := len(acc) - 1; i >= 0; i-- {
		if e := &acc[i]; e.kind == kindNotes {
			if notes != "" && (len(e.msg.Parts) != 1 || e.msg.Parts[0].Text != notes) {
				e.msg = userText(notes)
				e.tokens = estimateMessage(&e.msg)
				e.sanitise()
			}
			break
		}
	}
	tokens := 0
	for i := range acc {
		tokens += acc[i].tokens
	}
	s.setAccumulated(acc, tokens)
}

// resetShown forgets what the model was sent of the Refreshed context: the
// next request states it in full.
func (s *store) resetShown() {
	s.shownBrief.ok, s.shownObs.ok = false, false
	s.renderedOK = false
}

// setObservation replaces the observation of Refreshed context.
func (s *store) setObservation(text string, images []schema.Image) {
	s.observation = parsePiece(text, s.observation.items)
	s.obsImages = images
	s.renderedOK = false
}

func (s *store) setBrief(text string) {
	s.brief = parsePiece(text, s.brief.items)
	s.renderedOK = false
}

// refreshedText is the Refreshed text of the next request: each piece in
// full or as its changes since the model was last sent it.
func (s *store) refreshedText() string {
	if !s.renderedOK {
		s.renderRefreshed()
	}
	if len(s.rendered.Parts) == 0 {
		return ""
	}
	return s.rendered.Parts[0].Text
}

// renderRefreshed renders the Refreshed text and the message that carries
// it (a cache breakpoint: the next request repeats it; see consumeImages).
func (s *store) renderRefreshed() {
	s.rendered, s.renderedOK = model.Message{}, true
	if s.brief.text == "" && s.observation.text == "" {
		return
	}
	var b strings.Builder
	b.Grow(len(s.brief.text) + len(s.observation.text) + len(laterTurnsNote) + 2)
	full := false
	if s.brief.text != "" {
		full = s.brief.render(&b, &s.shownBrief)
	}
	if s.observation.text != "" {
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		full = s.observation.render(&b, &s.shownObs) || full
	}
	if full {
		b.WriteString(laterTurnsNote)
	}
	s.rendered = model.Message{Role: model.RoleUser, Parts: []model.Part{{Text: b.String()}}, CacheBreakpoint: true}
}

// laterTurnsNote follows a Refreshed text stated in full.
const laterTurnsNote = "\n\n(Later turns repeat only what changed: a line not repeated still holds.)"

// refreshedTokens is the estimate of the Refreshed message (0 when there
// is none).
func (s *store) refreshedTokens() int {
	text := s.refreshedText()
	if text == "" && len(s.obsImages) == 0 {
		return 0
	}
	return messageOverhead + textTokens(len(text)) + imageTokens*len(s.obsImages)
}

// total is the estimated size of the whole next decide request.
func (s *store) total() int {
	return s.residentTokens + s.toolTokens + s.accTokens + s.refreshedTokens()
}

func (s *store) counts() TokenCounts {
	r := s.refreshedTokens()
	return TokenCounts{
		Resident: s.residentTokens + s.toolTokens, Refreshed: r,
		Accumulated: s.accTokens, Total: s.residentTokens + s.toolTokens + s.accTokens + r,
	}
}

// request renders the decide request: Resident, then Accumulated, then the
// Refreshed context: its text, then its camera images.
func (s *store) request() model.Request {
	// Cache breakpoints (providers that take them: Anthropic) sit on the
	// resident prefix and on the Refreshed text, the last message the next
	// request repeats (see consumeImages), or else on the end of
	// Accumulated context.
	if !s.prefixOK {
		res := s.resident
		res.CacheBreakpoint = true
		s.prefix = append(s.prefix[:0], res)
		s.prefixN, s.prefixOK = 0, true
	}
	for ; s.prefixN < len(s.acc); s.prefixN++ {
		s.prefix = append(s.prefix, s.acc[s.prefixN].msg)
	}
	n := len(s.prefix)
	s.prefix = slices.Grow(s.prefix, 2)
	msgs := s.prefix[: n : n+2]
	if s.refreshedText() != "" {
		msgs = append(msgs, s.rendered)
	} else if n > 1 {
		// The breakpoint goes on a message of the prefix: on a copy.
		msgs = append([]model.Message(nil), msgs...)
		msgs[n-1].CacheBreakpoint = true
	}
	// The observation's camera images follow in a message of their own:
	// they are the one part of a request the next one does not repeat.
	if len(s.obsImages) > 0 {
		parts := make([]model.Part, len(s.obsImages))
		for i := range s.obsImages {
			parts[i] = model.Part{Image: &s.obsImages[i]}
		}
		msgs = append(msgs, model.Message{Role: model.RoleUser, Parts: parts})
	}
	return model.Request{Purpose: model.PurposeDecide, Messages: msgs, Tools: s.tools}
}

// refreshedMessages is how many messages request ends with that are
// Refreshed context.
func (s *store) refreshedMessages() int {
	n := 0
	if s.refreshedText() != "" {
		n++
	}
	if len(s.obsImages) > 0 {
		n++
	}
	return n
}

// consumeImages runs after each decide call. Every transient tool image
// just sent is replaced by a placeholder (images live for the one model
// call that consumes them), and the Refreshed text just sent joins the
// observation trail where it was sent, without its images: the next request
// states only what changed since.
func (s *store) consumeImages(turn, group int) {
	for i := len(s.acc) - 1; i >= 0 && s.pending > 0; i-- {
		e := &s.acc[i]
		if !e.pending {
			continue
		}
		parts := make([]model.Part, 0, len(e.msg.Parts))
		for _, p := range e.msg.Parts {
			if p.Image != nil {
				p = model.Part{Text: "\n" + placeholder(p.Image, turn)}
			}
			parts = append(parts, p)
		}
		e.msg.Parts = parts
		e.pending = false
		s.pending--
		s.accTokens -= e.tokens
		e.tokens = estimateMessage(&e.msg)
		s.accTokens += e.tokens
		e.sanitise()
		s.prefixOK = false
	}
	s.obsImages = nil
	if s.refreshedText() != "" {
		// The message as it was sent, cache breakpoint included: a
		// provider's cache entry ends there.
		s.append(entry{kind: kindObservation, group: group, msg: s.rendered})
		s.brief.shown(&s.shownBrief)
		s.observation.shown(&s.shownObs)
		s.renderedOK = false
	}
}

func placeholder(img *schema.Image, turn int) string {
	name := "tool image"
	if img.Camera != "" {
		name = img.Camera + " camera"
	}
	if img.Width > 0 && img.Height > 0 {
		return fmt.Sprintf("[image: %s, %dx%d, consumed at turn %d]", name, img.Width, img.Height, turn)
	}
	return fmt.Sprintf("[image: %s, consumed at turn %d]", name, turn)
}

func joinNonEmpty(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "\n\n")
}
