package lifetimes

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

const compactInstruction = "You maintain the checkpoint summary of an embodied agent's earlier task history. " +
	"Update the previous checkpoint with the new messages, oldest first. Keep every fact needed to continue: " +
	"instructions and goals, user answers, where objects are, what succeeded and what failed and why. " +
	"Reply with the updated summary text only."

// Compactor replaces an older prefix of Accumulated context by one checkpoint.
type Compactor struct {
	cfg       schema.Compaction
	model     model.Model
	modelName string
}

// NewCompactor compacts by cfg with m, the summary model, named name in
// each checkpoint's metadata.
func NewCompactor(cfg schema.Compaction, m model.Model, name string) Compactor {
	return Compactor{cfg: cfg, model: m, modelName: name}
}

// SetModel replaces the summary model (a compaction_model of its own).
func (c *Compactor) SetModel(m model.Model, name string) { c.model, c.modelName = m, name }

// Compact replaces an older prefix of s's Accumulated context by one
// checkpoint made with c; current is the group of the turn in progress,
// always retained. On any failure Accumulated context is left as it was.
func (s *Store) Compact(ctx context.Context, c *Compactor, current int) (runlog.CompactionInfo, error) {
	return s.compact(ctx, c, current, c.cfg.KeepRecentTokens)
}

// CompactTo compacts as Compact does, aiming for a next request of about
// target estimated tokens: the retained tail keeps, besides the turn in
// progress, only the recent turns that fit in what target leaves beside
// Resident and Refreshed context, the latest Task Notes entry and a
// checkpoint the size of the previous one (and never more than
// keep_recent_turns and keep_recent_tokens). A target of 0 keeps the turn
// in progress alone.
func (s *Store) CompactTo(ctx context.Context, c *Compactor, current, target int) (runlog.CompactionInfo, error) {
	fixed := s.residentTokens + s.toolTokens + s.refreshedTokens()
	notes := false
	for i := len(s.acc) - 1; i >= 0; i-- {
		e := &s.acc[i]
		switch {
		case e.group == current:
			fixed += e.tokens
		case e.kind == KindNotes && !notes:
			fixed += e.tokens
			notes = true
		}
	}
	if len(s.acc) > 0 && s.acc[0].kind == KindCheckpoint {
		fixed += s.acc[0].tokens
	}
	return s.compact(ctx, c, current, min(c.cfg.KeepRecentTokens, max(0, target-fixed)))
}

// compact replaces the older prefix, keeping recent turns of at most
// keepTokens beside the turn in progress.
func (s *Store) compact(ctx context.Context, c *Compactor, current, keepTokens int) (runlog.CompactionInfo, error) {
	out, info, err := c.run(ctx, s.acc, current, keepTokens)
	if err != nil {
		return info, err
	}
	s.replaceAccumulated(out)
	return info, nil
}

// errNothingToCompact means the whole Accumulated context is retained tail.
var errNothingToCompact = errors.New("nothing to compact: every accumulated turn is within the retained tail")

// Due reports whether the estimated request reaches context_window - reserve_tokens.
func (c *Compactor) Due(total int) bool {
	return c.cfg.Enabled && total >= c.cfg.ContextWindow-c.cfg.ReserveTokens
}

// plan splits acc into the prefix to summarise and what stays. It returns
// the index where the retained tail starts and the index of the entry that
// is pinned (the current Task Notes snapshot) or -1. current is the group of
// the turn in progress, always retained; the other retained turns hold at
// most keepTokens.
func (c *Compactor) plan(acc []entry, current, keepTokens int) (tailStart, pinned int) {
	tailStart = len(acc)
	turns, tokens := 0, 0
	for tailStart > 0 {
		g := acc[tailStart-1].group
		if acc[tailStart-1].kind == KindCheckpoint {
			break
		}
		start, sum := tailStart, 0
		for start > 0 && acc[start-1].group == g && acc[start-1].kind != KindCheckpoint {
			start--
			sum += acc[start].tokens
		}
		if g != current {
			if turns+1 > c.cfg.KeepRecentTurns || tokens+sum > keepTokens {
				break
			}
			turns++
			tokens += sum
		}
		tailStart = start
	}
	// Transient images not yet sent stay with their turn, verbatim: the
	// model call that consumes them has not happened.
	for i := 0; i < tailStart; i++ {
		if acc[i].pending {
			for i > 0 && acc[i-1].group == acc[i].group && acc[i-1].kind != KindCheckpoint {
				i--
			}
			tailStart = i
			break
		}
	}
	pinned = -1
	for i := len(acc) - 1; i >= 0; i-- {
		if acc[i].kind == KindNotes {
			if i < tailStart {
				pinned = i
			}
			break
		}
	}
	return tailStart, pinned
}

// run compacts acc, keeping recent turns of at most keepTokens; on any failure it returns the error and acc is not
// touched (the caller keeps its slice). On success it returns the new
// slice, built in acc's array: the caller's acc is not used again.
func (c *Compactor) run(ctx context.Context, acc []entry, current, keepTokens int) ([]entry, runlog.CompactionInfo, error) {
	info := runlog.CompactionInfo{MessagesBefore: len(acc)}
	tailStart, pinned := c.plan(acc, current, keepTokens)
	from := 0
	prev, first := "", -1
	if len(acc) > 0 && acc[0].kind == KindCheckpoint {
		prev, first, from = acc[0].summary, acc[0].first, 1
	}
	var items []item
	for i := from; i < tailStart; {
		j := i
		var b strings.Builder
		b.Grow(groupSize(acc[i:tailStart], acc[i].group))
		for j < tailStart && acc[j].group == acc[i].group {
			if j != pinned {
				c.render(&b, &acc[j])
			}
			j++
		}
		if b.Len() > 0 {
			items = append(items, item{text: b.String(), start: i, end: j})
		}
		i = j
	}
	if len(items) == 0 {
		return nil, info, errNothingToCompact
	}
	if first < 0 {
		first = acc[items[0].start].group
	}
	summary, used, rounds, err := c.summarise(ctx, prev, items)
	info.Rounds = rounds
	if err != nil {
		return nil, info, err
	}
	cut := items[used-1].end
	last := acc[cut-1].group
	cp := c.checkpoint(summary, first, last, cut-from, rounds)
	out := rebuild(acc, cut, cp, pinned)
	info.OK = true
	info.MessagesAfter = len(out)
	info.Kind = runlog.CheckpointKind
	info.Source = cp.msg.Meta["source"]
	return out, info, nil
}

// rebuild makes the compacted Accumulated context in acc's own array: the
// checkpoint, the pinned Task Notes snapshot when it was in the summarised
// prefix, then the retained tail acc[cut:]. Accumulated context grows back
// to about its size before the next compaction, so reusing the array saves
// allocating (and the collector scanning) a new one each time. The slots
// left over are cleared, so the summarised entries' text can be freed.
func rebuild(acc []entry, cut int, cp entry, pinned int) []entry {
	head := []entry{cp}
	if pinned >= 0 && pinned < cut {
		head = append(head, acc[pinned])
	}
	if cut < len(head) {
		// Not from run (its prefix holds a summarised entry besides the
		// pinned one), but the array would be one short.
		return append(head, acc[cut:]...)
	}
	n := copy(acc[len(head):], acc[cut:])
	copy(acc, head)
	out := acc[:len(head)+n]
	clear(acc[len(out):])
	return out
}

// groupSize is about the length of the rendered text of the entries of
// group g at the start of acc (render's labels at most 64 bytes an entry),
// so that the text is built in one allocation.
func groupSize(acc []entry, g int) int {
	n := 0
	for i := range acc {
		e := &acc[i]
		if e.group != g {
			break
		}
		n += 64 + len(e.clean) + len(e.msg.Name) + len(e.reasoning)
		for _, tc := range e.msg.ToolCalls {
			n += 8 + len(tc.Name) + len(tc.Arguments)
		}
	}
	return n
}

// chunkSize is the length of the longest run of items from the start that
// fits in room (at least room, when the first alone exceeds it: it is cut
// to room).
func chunkSize(items []item, room int) int {
	n := 0
	for _, it := range items {
		if n+len(it.text) > room {
			if n == 0 {
				return room
			}
			break
		}
		n += len(it.text)
	}
	return n
}

// item is the sanitised text of one complete turn of the prefix.
type item struct {
	text       string
	start, end int
}

// summarise runs ordered rounds, each updating the previous checkpoint with
// the next chunk of items, each request within max_input_chars. It stops
// after max_summary_rounds; the items it did not reach stay verbatim (used
// says how many were summarised), so the middle is never dropped.
func (c *Compactor) summarise(ctx context.Context, prev string, items []item) (summary string, used, rounds int, err error) {
	summary = prev
	maxRounds := max(c.cfg.MaxSummaryRounds, 1)
	for used < len(items) && rounds < maxRounds {
		// A checkpoint that grew past half the input budget is bounded,
		// keeping its start and end, so every later round (and every later
		// compaction) still has room for new messages.
		if half := c.cfg.MaxInputChars / 2; len(summary) > half {
			summary = BoundMiddle(summary, half)
		}
		room := c.cfg.MaxInputChars - len(summary)
		if room <= 0 {
			return "", 0, rounds, fmt.Errorf("compaction: max_input_chars (%d) leaves no room for messages", c.cfg.MaxInputChars)
		}
		var chunk strings.Builder
		chunk.Grow(chunkSize(items[used:], room))
		for used < len(items) {
			t := items[used].text
			if chunk.Len() == 0 && len(t) > room {
				t = BoundMiddle(t, room) // one turn larger than a whole request
			} else if chunk.Len()+len(t) > room {
				break
			}
			chunk.WriteString(t)
			used++
		}
		rounds++
		summary, err = c.round(ctx, summary, chunk.String())
		if err != nil {
			return "", 0, rounds, fmt.Errorf("compaction round %d: %w", rounds, err)
		}
	}
	return summary, used, rounds, nil
}

func (c *Compactor) round(ctx context.Context, prev, chunk string) (string, error) {
	if prev == "" {
		prev = "(none)"
	}
	req := model.Request{Purpose: model.PurposeCompact, Messages: []model.Message{
		{Role: model.RoleSystem, Parts: []model.Part{{Text: compactInstruction}}},
		{Role: model.RoleUser, Parts: []model.Part{{Text: "Previous checkpoint:\n" + prev + "\n\nNew messages:\n" + chunk}}},
	}}
	resp, err := c.model.Generate(ctx, req)
	if err != nil {
		return "", fmt.Errorf("summary model: %w", err)
	}
	text := strings.TrimSpace(resp.Text)
	switch {
	case len(resp.ToolCalls) > 0:
		return "", errors.New("malformed summary: the model answered with a tool call")
	case text == "":
		return "", errors.New("malformed summary: empty text")
	}
	return text, nil
}

// render writes one entry as sanitised text: media as placeholders, tool
// results and reasoning bounded keeping beginning and end. The sanitised
// text was computed when the entry entered Accumulated context.
func (c *Compactor) render(b *strings.Builder, e *entry) {
	if !e.cleanOK {
		// Not appended through the store: sanitised here, leaving the
		// entry as it is (a failed compaction changes nothing).
		cp := *e
		cp.sanitise()
		e = &cp
	}
	var num [20]byte
	b.WriteString("[turn ")
	b.Write(strconv.AppendInt(num[:0], int64(e.group), 10))
	b.WriteString("] ")
	switch e.kind {
	case KindToolResult:
		b.WriteString("result of ")
		b.WriteString(e.msg.Name)
		b.WriteString(": ")
		b.WriteString(BoundMiddle(e.clean, c.cfg.ToolResultMaxChars))
		b.WriteString("\n")
		return
	case KindResponse:
		b.WriteString("assistant: ")
		b.WriteString(BoundMiddle(e.clean, c.cfg.ToolResultMaxChars))
		if e.reasoning != "" {
			b.WriteString(" (reasoning: ")
			b.WriteString(BoundMiddle(e.reasoning, c.cfg.ReasoningMaxChars))
			b.WriteString(")")
		}
		for i, tc := range e.msg.ToolCalls {
			b.WriteString(" call ")
			b.WriteString(tc.Name)
			switch limit := c.cfg.ToolResultMaxChars; {
			case e.cleanArgs != nil && e.cleanArgs[i] != "":
				b.WriteString(BoundMiddle(e.cleanArgs[i], limit))
			case limit <= 0 || len(tc.Arguments) <= limit:
				b.Write(tc.Arguments) // as it is: nothing to strip or cut
			default:
				b.WriteString(BoundMiddle(string(tc.Arguments), limit))
			}
		}
		b.WriteString("\n")
		return
	}
	b.WriteString(string(e.msg.Role))
	b.WriteString(": ")
	b.WriteString(e.clean)
	b.WriteString("\n")
}

// partsText is a message's text with every image, and every base64, hex or
// binary payload inside the text, replaced by a bounded placeholder: stored
// media never reaches a summary request.
func partsText(ps []model.Part) string {
	if len(ps) == 1 && ps[0].Image == nil {
		return stripPayloads(ps[0].Text)
	}
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(stripPayloads(p.Text))
		if p.Image != nil {
			fmt.Fprintf(&b, "[image omitted: %s %dx%d]", p.Image.Camera, p.Image.Width, p.Image.Height)
		}
	}
	return b.String()
}

func (c *Compactor) checkpoint(summary string, first, last, messages, rounds int) entry {
	source := fmt.Sprintf("accumulated turns %d-%d (%d messages) summarised by %s in %d round(s)", first, last, messages, c.modelName, rounds)
	text := fmt.Sprintf("Checkpoint summary of earlier context (turns %d-%d):\n%s", first, last, summary)
	e := entry{kind: KindCheckpoint, group: last, first: first, last: last, summary: summary, msg: model.Message{
		Role:  model.RoleUser,
		Parts: []model.Part{{Text: text}},
		Meta: map[string]string{
			"kind": runlog.CheckpointKind, "source": source,
			"first_turn": strconv.Itoa(first), "last_turn": strconv.Itoa(last),
			"model": c.modelName, "rounds": strconv.Itoa(rounds),
		},
	}}
	e.tokens = estimateMessage(&e.msg)
	return e
}
