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
}

// store is the context of one session in its three lifetimes.
type store struct {
	// Resident: one system message and the visible tool definitions.
	resident       model.Message
	residentTokens int
	tools          []model.ToolDef
	toolTokens     int

	// Refreshed: replaced before every model call.
	brief        string
	observation  string
	obsImages    []schema.Image
	refreshedTok int

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
}

// setRefreshed replaces the Refreshed context.
func (s *store) setObservation(text string, images []schema.Image) {
	s.observation = text
	s.obsImages = images
	s.recountRefreshed()
}

func (s *store) setBrief(text string) {
	s.brief = text
	s.recountRefreshed()
}

func (s *store) recountRefreshed() {
	s.refreshedTok = messageOverhead + textTokens(len(s.brief)+len(s.observation)+2) + imageTokens*len(s.obsImages)
}

// total is the estimated size of the whole next decide request.
func (s *store) total() int {
	return s.residentTokens + s.toolTokens + s.accTokens + s.refreshedTok
}

func (s *store) counts() TokenCounts {
	return TokenCounts{
		Resident: s.residentTokens + s.toolTokens, Refreshed: s.refreshedTok,
		Accumulated: s.accTokens, Total: s.total(),
	}
}

// request renders the decide request: Resident, then Accumulated, then the
// Refreshed context as the last message, images included.
func (s *store) request() model.Request {
	msgs := make([]model.Message, 0, len(s.acc)+2)
	// Cache breakpoints (providers that take them: Anthropic) sit on the
	// resident prefix and at the end of Accumulated context: between
	// compactions each request repeats the previous one up to its last
	// message, the Refreshed one.
	res := s.resident
	res.CacheBreakpoint = true
	msgs = append(msgs, res)
	for i := range s.acc {
		msgs = append(msgs, s.acc[i].msg)
	}
	if n := len(msgs); n > 1 {
		msgs[n-1].CacheBreakpoint = true
	}
	if s.brief != "" || s.observation != "" || len(s.obsImages) > 0 {
		parts := make([]model.Part, 0, 1+len(s.obsImages))
		parts = append(parts, model.Part{Text: joinNonEmpty(s.brief, s.observation)})
		for i := range s.obsImages {
			parts = append(parts, model.Part{Image: &s.obsImages[i]})
		}
		msgs = append(msgs, model.Message{Role: model.RoleUser, Parts: parts})
	}
	return model.Request{Purpose: model.PurposeDecide, Messages: msgs, Tools: s.tools}
}

// consumeImages replaces every image just sent by a placeholder: images live
// for the one model call that consumes them.
func (s *store) consumeImages(turn int) {
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
	if len(s.obsImages) > 0 {
		notes := make([]string, len(s.obsImages))
		for i := range s.obsImages {
			notes[i] = placeholder(&s.obsImages[i], turn)
		}
		s.observation = joinNonEmpty(s.observation, strings.Join(notes, "\n"))
		s.obsImages = nil
		s.recountRefreshed()
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
