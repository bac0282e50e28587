package engine

import (
	"fmt"
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
	// notes are the Task Notes a snapshot was taken of: after a compaction
	// the latest snapshot reads in full, also when it stated only changes.
	notes *TaskNotes
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
	rendered             string
	renderedOK           bool

	// Accumulated.
	acc       []entry
	accTokens int
}

func (s *store) setResident(text string, tools []model.ToolDef) {
	s.resident = model.Message{Role: model.RoleSystem, Parts: []model.Part{{Text: text}}}
	s.residentTokens = estimateMessage(&s.resident)
	s.tools = tools
	s.toolTokens = estimateTools(tools)
}

func (s *store) append(e entry) {
	e.tokens = estimateMessage(&e.msg)
	s.acc = append(s.acc, e)
	s.accTokens += e.tokens
}

func (s *store) clearAccumulated() {
	s.acc = nil
	s.accTokens = 0
	s.resetShown()
}

// replaceAccumulated installs a compacted Accumulated context. The
// observation trail before the checkpoint is summarised, so the next
// request states the Refreshed context in full; the latest Task Notes
// snapshot reads in full (the earlier ones it updated may be summarised).
func (s *store) replaceAccumulated(acc []entry) {
	for i := len(acc) - 1; i >= 0; i-- {
		if e := &acc[i]; e.kind == kindNotes {
			if e.notes != nil {
				if full := e.notes.render(); len(e.msg.Parts) != 1 || e.msg.Parts[0].Text != full {
					e.msg = userText(full)
					e.tokens = estimateMessage(&e.msg)
				}
			}
			break
		}
	}
	s.acc = acc
	s.accTokens = 0
	for i := range acc {
		s.accTokens += acc[i].tokens
	}
	s.resetShown()
}

// resetShown forgets what the model was sent of the Refreshed context: the
// next request states it in full.
func (s *store) resetShown() {
	s.shownBrief.ok, s.shownObs.ok = false, false
	s.renderedOK = false
}

// setObservation replaces the observation of Refreshed context.
func (s *store) setObservation(text string, images []schema.Image) {
	s.observation = parsePiece(text)
	s.obsImages = images
	s.renderedOK = false
}

func (s *store) setBrief(text string) {
	s.brief = parsePiece(text)
	s.renderedOK = false
}

// refreshedText is the Refreshed text of the next request: each piece in
// full or as its changes since the model was last sent it.
func (s *store) refreshedText() string {
	if s.renderedOK {
		return s.rendered
	}
	var b strings.Builder
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
	s.rendered, s.renderedOK = b.String(), true
	return s.rendered
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
// Refreshed context as the last message, images included.
func (s *store) request() model.Request {
	msgs := make([]model.Message, 0, len(s.acc)+3)
	// Cache breakpoints (providers that take them: Anthropic) sit on the
	// resident prefix and on the last message before the observation's
	// images: the Refreshed text, which the next request repeats in the
	// same place (see consumeImages), or else the end of Accumulated
	// context.
	res := s.resident
	res.CacheBreakpoint = true
	msgs = append(msgs, res)
	for i := range s.acc {
		msgs = append(msgs, s.acc[i].msg)
	}
	if text := s.refreshedText(); text != "" {
		msgs = append(msgs, userText(text))
	}
	if n := len(msgs); n > 1 {
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
	for i := len(s.acc) - 1; i >= 0; i-- {
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
		s.accTokens -= e.tokens
		e.tokens = estimateMessage(&e.msg)
		s.accTokens += e.tokens
	}
	s.obsImages = nil
	if text := s.refreshedText(); text != "" {
		s.append(entry{kind: kindObservation, group: group, msg: userText(text)})
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
