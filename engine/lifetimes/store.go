package lifetimes

import (
	"fmt"
	"slices"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// Kind tells what an Accumulated entry holds.
type Kind uint8

const (
	KindInstruction Kind = iota
	KindNotes
	KindResponse
	KindToolResult
	KindCheckpoint
)

// Entry is what the turn appends to Accumulated context: a message, its
// kind and the turn (group) it belongs to. Reasoning is kept, bounded, for
// compaction inputs only; Pending marks a message holding images that are
// sent with the next request only, then replaced by placeholder text.
type Entry struct {
	Kind      Kind
	Group     int
	Msg       model.Message
	Reasoning string
	Pending   bool
}

// entry is one message of Accumulated context. Entries appended during one
// turn share its group: a group is a complete turn (a tool call and its
// result are never separated by compaction).
type entry struct {
	kind  Kind
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
	// kept is the entry encoded as a checkpoint keeps it (KeptEntry),
	// computed when first asked and dropped whenever the entry changes
	// (sanitise), so a turn's checkpoint encodes only what is new.
	kept []byte
}

// sanitise computes the entry's text as compaction reads it.
func (e *entry) sanitise() {
	e.clean, e.cleanArgs, e.cleanOK = partsText(e.msg.Parts), nil, true
	e.kept = nil
	for i, tc := range e.msg.ToolCalls {
		if mayHoldPayload(tc.Arguments) {
			if e.cleanArgs == nil {
				e.cleanArgs = make([]string, len(e.msg.ToolCalls))
			}
			e.cleanArgs[i] = replacePayloads(string(tc.Arguments))
		}
	}
}

// Store is the context of one session in its three lifetimes.
type Store struct {
	// Resident: one system message and the visible tool definitions.
	resident       model.Message
	residentTokens int
	tools          []model.ToolDef
	toolTokens     int

	// Refreshed: the Scene Graph Brief and the current observation,
	// replaced before every model call and never stored in Accumulated
	// context. tail is the message that carries them at the end of the next
	// request, valid while tailOK.
	brief, observation string
	obsImages          []world.Image
	tail               model.Message
	tailOK             bool
	// notes are the whole Task Notes, stated first in the tail.
	notes string

	// Accumulated. pending counts the entries holding images not sent yet.
	acc       []entry
	accTokens int
	pending   int

	// prefix is the Resident message and the messages of acc[:prefixN], as
	// a request starts (valid while prefixOK): appending to Accumulated
	// context extends it, anything else rebuilds it. A request is this
	// array, the Refreshed tail written after its end: requests are not
	// copied (see model.Model: a model keeps no part of its request).
	// marked is the message of prefix that carries the cache breakpoint at
	// the end of Accumulated context (0: none but the Resident one).
	prefix   []model.Message
	prefixN  int
	prefixOK bool
	marked   int
}

// SetResident replaces Resident context: the system message's text and the
// visible tool definitions.
func (s *Store) SetResident(text string, tools []model.ToolDef) {
	s.resident = model.Message{Role: model.RoleSystem, Parts: []model.Part{{Text: text}}}
	s.residentTokens = estimateMessage(&s.resident)
	s.tools = tools
	s.toolTokens = estimateTools(tools)
	s.prefixOK = false
}

// Tools are the tool definitions of Resident context.
func (s *Store) Tools() []model.ToolDef { return s.tools }

// HasAccumulated reports whether Accumulated context holds any message.
func (s *Store) HasAccumulated() bool { return len(s.acc) > 0 }

// Append adds one message to the end of Accumulated context.
func (s *Store) Append(in Entry) {
	// Reasoning is read by compaction only: its payloads go now, once.
	s.append(entry{kind: in.Kind, group: in.Group, msg: in.Msg, reasoning: stripPayloads(in.Reasoning), pending: in.Pending})
}

func (s *Store) append(e entry) {
	e.tokens = estimateMessage(&e.msg)
	e.sanitise()
	if e.pending {
		s.pending++
		s.tailOK = false // the tail names a frame a pending result already holds
	}
	s.acc = append(s.acc, e)
	s.accTokens += e.tokens
}

// ClearAccumulated empties Accumulated context.
func (s *Store) ClearAccumulated() {
	s.setAccumulated(nil, 0)
}

// Saved is a copy of Accumulated context, to put back with
// RestoreAccumulated.
type Saved struct {
	acc    []entry
	tokens int
}

// SaveAccumulated copies Accumulated context as it is now.
func (s *Store) SaveAccumulated() Saved {
	return Saved{acc: append([]entry(nil), s.acc...), tokens: s.accTokens}
}

// RestoreAccumulated puts back a copy SaveAccumulated made.
func (s *Store) RestoreAccumulated(saved Saved) { s.setAccumulated(saved.acc, saved.tokens) }

// setAccumulated installs acc (its estimate accTokens) as it is.
func (s *Store) setAccumulated(acc []entry, accTokens int) {
	s.acc, s.accTokens, s.pending = acc, accTokens, 0
	for i := range acc {
		if acc[i].pending {
			s.pending++
		}
	}
	s.prefixOK = false
}

// replaceAccumulated installs a compacted Accumulated context (the latest
// Task Notes snapshot in it verbatim: see Compactor.plan).
func (s *Store) replaceAccumulated(acc []entry) {
	tokens := 0
	for i := range acc {
		tokens += acc[i].tokens
	}
	s.setAccumulated(acc, tokens)
}

// SetObservation replaces the observation of Refreshed context: its text
// and its camera images.
func (s *Store) SetObservation(text string, images []world.Image) {
	s.observation, s.obsImages = text, images
	s.tailOK = false
}

// SetBrief replaces the Scene Graph Brief of Refreshed context.
func (s *Store) SetBrief(text string) {
	s.brief = text
	s.tailOK = false
}

// SetNotes replaces the whole Task Notes stated in Refreshed context
// (Accumulated context holds what changed, as it changed).
func (s *Store) SetNotes(text string) {
	s.notes = text
	s.tailOK = false
}

// refreshedTail is the Refreshed tail of the next request: one user
// message, the whole Task Notes, the whole Brief and the whole
// observation's text, then the observation's camera images, each labelled
// (see tailImages); ok is false
// when there is nothing to state.
func (s *Store) refreshedTail() (model.Message, bool) {
	if !s.tailOK {
		s.tail, s.tailOK = model.Message{}, true
		var text string
		for _, piece := range [...]string{s.notes, s.brief, s.observation} {
			switch {
			case piece == "":
			case text == "":
				text = piece
			default:
				text += "\n\n" + piece
			}
		}
		if text != "" || len(s.obsImages) > 0 {
			parts := make([]model.Part, 0, 1+2*len(s.obsImages))
			if text != "" {
				parts = append(parts, model.Part{Text: text})
			}
			parts = append(parts, s.tailImages()...)
			s.tail = model.Message{Role: model.RoleUser, Parts: parts}
		}
	}
	return s.tail, len(s.tail.Parts) > 0
}

// refreshedTokens is the estimate of the Refreshed tail (0 when there is
// none).
func (s *Store) refreshedTokens() int {
	tail, ok := s.refreshedTail()
	if !ok {
		return 0
	}
	return estimateMessage(&tail)
}

// Total is the estimated size of the whole next decide request.
func (s *Store) Total() int {
	return s.residentTokens + s.toolTokens + s.accTokens + s.refreshedTokens()
}

// Counts are the estimated tokens of each lifetime of the next request.
func (s *Store) Counts() runlog.TokenCounts {
	r := s.refreshedTokens()
	return runlog.TokenCounts{
		Resident: s.residentTokens + s.toolTokens, Refreshed: r,
		Accumulated: s.accTokens, Total: s.residentTokens + s.toolTokens + s.accTokens + r,
	}
}

// Request renders the decide request: Resident, then Accumulated, then the
// Refreshed tail (its text, then its camera images). Everything before the
// tail repeats the previous request (Accumulated context only grows between
// compactions), so the cache breakpoints (providers that take them:
// Anthropic) sit on the Resident message and on the last message before the
// tail: the end of what the next request repeats.
func (s *Store) Request() model.Request {
	if !s.prefixOK {
		res := s.resident
		res.CacheBreakpoint = true
		s.prefix = append(s.prefix[:0], res)
		s.prefixN, s.prefixOK, s.marked = 0, true, 0
	}
	for ; s.prefixN < len(s.acc); s.prefixN++ {
		s.prefix = append(s.prefix, s.acc[s.prefixN].msg)
	}
	// The breakpoint moves to the new end; prefix holds copies of the
	// Accumulated messages, so the entries keep no mark.
	n := len(s.prefix)
	if s.marked != n-1 {
		if s.marked > 0 {
			s.prefix[s.marked].CacheBreakpoint = false
		}
		if n > 1 {
			s.prefix[n-1].CacheBreakpoint = true
		}
		s.marked = n - 1
	}
	msgs := s.prefix[:n:n]
	if tail, ok := s.refreshedTail(); ok {
		s.prefix = slices.Grow(s.prefix, 1)
		msgs = append(s.prefix[:n:n+1], tail)
	}
	return model.Request{Purpose: model.PurposeDecide, Messages: msgs, Tools: s.tools}
}

// RefreshedMessages is how many messages Request ends with that are
// Refreshed context (the tail: 0 or 1).
func (s *Store) RefreshedMessages() int {
	if _, ok := s.refreshedTail(); ok {
		return 1
	}
	return 0
}

// ConsumeImages runs after each decide call. Every transient tool image
// just sent is replaced by a placeholder, and the observation's images
// leave the Refreshed context: images live for the one model call that
// consumes them. The tail itself was never stored: the next request
// carries the next one.
func (s *Store) ConsumeImages(turn int) {
	s.replacePending(func(img *world.Image) string { return placeholder(img, turn) })
	if len(s.obsImages) > 0 {
		s.obsImages = nil
		s.tailOK = false
	}
}

// replacePending replaces every image of the entries holding images not
// sent yet by a line of text (text's, after a newline), and reports how
// many it replaced.
func (s *Store) replacePending(text func(*world.Image) string) int {
	n := 0
	for i := len(s.acc) - 1; i >= 0 && s.pending > 0; i-- {
		e := &s.acc[i]
		if !e.pending {
			continue
		}
		parts := make([]model.Part, 0, len(e.msg.Parts))
		for _, p := range e.msg.Parts {
			if p.Image != nil {
				p = model.Part{Text: "\n" + text(p.Image)}
				n++
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
		s.prefixOK, s.tailOK = false, false
	}
	return n
}

func placeholder(img *world.Image, turn int) string {
	name := "tool image"
	if img.Camera != "" {
		name = img.Camera + " camera"
	}
	if img.Width > 0 && img.Height > 0 {
		return fmt.Sprintf("[image: %s, %dx%d, consumed at turn %d]", name, img.Width, img.Height, turn)
	}
	return fmt.Sprintf("[image: %s, consumed at turn %d]", name, turn)
}
