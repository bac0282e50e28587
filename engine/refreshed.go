package engine

import (
	"slices"
	"strconv"
	"strings"
)

// The Refreshed context (the Scene Graph Brief, the current observation) is
// replaced before every model call, but most of it is the same as the turn
// before. Each request therefore states it in full only when the model has
// not seen it yet (the first request of a session, after a compaction);
// otherwise it states what changed since the request before, and "unchanged"
// for the rest. What a request stated stays in Accumulated context, in the
// same place, as the observation trail (kindObservation): the next request
// repeats the previous one up to its images, which is what a provider's
// prompt cache serves.
//
// A piece of Refreshed text is a header line, then items, one per line (a
// line starting with a space continues the item before it). An item's key
// is its text before the first ": " (or the whole line): "pose: …",
// "- obj:mug: on place:table [observe t3]". Two items with the same key are
// the same fact; it changed when its text changed, leaving aside where its
// source stamps say it came from ("[observe t3]", "[observe/head+wrist t4]"
// and "[navigate_to ✓ t1]" state the same fact; "[observe t2, stale]" does
// not: a fact going stale is a change).

// piece is one part of the Refreshed context.
type piece struct {
	text   string // as set
	header string
	items  []pieceItem
}

type pieceItem struct {
	key, text string
	// steady is text without the turn numbers of its source stamps.
	steady string
}

// shownPiece is what the model was last sent of a piece: each item's
// steady text by key. ok is false until a request stated the piece.
type shownPiece struct {
	ok    bool
	items map[string]string
}

func parsePiece(text string) piece {
	p := piece{text: text}
	if text == "" {
		return p
	}
	header, rest, _ := strings.Cut(text, "\n")
	p.header = header
	for rest != "" {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if line == "" {
			continue
		}
		if n := len(p.items); n > 0 && line[0] == ' ' {
			it := &p.items[n-1]
			it.text += "\n" + line
			it.steady = steadyText(it.text)
			continue
		}
		key := line
		if i := strings.Index(line, ": "); i > 0 {
			key = line[:i]
		}
		p.items = append(p.items, pieceItem{key: uniqueKey(p.items, key), text: line, steady: steadyText(line)})
	}
	return p
}

// uniqueKey keeps two items of one key apart (a back-end that repeats a
// line): the second is key#2, and so on.
func uniqueKey(items []pieceItem, key string) string {
	k, n := key, 1
	for {
		clash := false
		for i := range items {
			if items[i].key == k {
				clash = true
				break
			}
		}
		if !clash {
			return k
		}
		n++
		k = key + "#" + strconv.Itoa(n)
	}
}

// steadyText is s with the contents of its square brackets (source stamps)
// left out, except the word "stale".
func steadyText(s string) string {
	if strings.IndexByte(s, '[') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for {
		i := strings.IndexByte(s, '[')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], ']')
		if j < 0 {
			break
		}
		b.WriteString(s[:i+1])
		if strings.Contains(s[i:i+j], "stale") {
			b.WriteString("stale")
		}
		b.WriteByte(']')
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return b.String()
}

// render writes the piece: in full when the model has not seen it, when it
// has no items (a one-line note such as "observation unavailable") or when
// its changes would not be shorter; else its changes since it was shown.
func (p *piece) render(b *strings.Builder, sh *shownPiece) (full bool) {
	if !sh.ok || len(p.items) == 0 {
		b.WriteString(p.text)
		return len(p.items) > 0
	}
	head := shortHeader(p.header)
	changed, gone, digest := 0, len(sh.items), -1
	for i := range p.items {
		it := &p.items[i]
		v, ok := sh.items[it.key]
		if ok {
			gone--
		}
		if !ok || v != it.steady {
			changed++
			if it.key == digestKey {
				digest = i
			}
		}
	}
	if changed == 0 && gone == 0 {
		b.WriteString(head)
		b.WriteString(": unchanged")
		return false
	}
	// The digest says again in words what the other fields say: it is
	// restated when it is the one change, not beside the changes it
	// digests.
	restateDigest := digest < 0 || changed == 1 && gone == 0
	size := len(head) + len(changedNote)
	for i := range p.items {
		it := &p.items[i]
		if v, ok := sh.items[it.key]; !ok || v != it.steady {
			if i == digest && !restateDigest {
				size += 1 + len(it.key) + len(digestNote)
			} else {
				size += 1 + len(it.text)
			}
		}
	}
	var goneKeys []string
	if gone > 0 {
		// Sorted: the same text from one render to the next.
		goneKeys = make([]string, 0, gone)
		for k := range sh.items {
			if !p.has(k) {
				goneKeys = append(goneKeys, strings.TrimPrefix(k, "- "))
			}
		}
		slices.Sort(goneKeys)
		size += len(goneNote)
		for _, k := range goneKeys {
			size += len(k) + 2
		}
	}
	if size >= len(p.text) {
		b.WriteString(p.text)
		return true
	}
	b.WriteString(head)
	b.WriteString(changedNote)
	for i := range p.items {
		it := &p.items[i]
		if v, ok := sh.items[it.key]; !ok || v != it.steady {
			b.WriteByte('\n')
			if i == digest && !restateDigest {
				b.WriteString(it.key)
				b.WriteString(digestNote)
				continue
			}
			b.WriteString(it.text)
		}
	}
	if len(goneKeys) > 0 {
		b.WriteString(goneNote)
		b.WriteString(strings.Join(goneKeys, ", "))
	}
	return false
}

const (
	// digestKey names the item that sums up the others in words (the
	// Observation's summary).
	digestKey   = "summary"
	digestNote  = ": (changed; the lines below say how)"
	changedNote = ", changed:"
	goneNote    = "\nno longer listed: "
)

// shown records the piece as the model was sent it.
func (p *piece) shown(sh *shownPiece) {
	if p.text == "" || len(p.items) == 0 {
		// Nothing to compare a later piece with: the next one is stated
		// in full.
		sh.ok = false
		clear(sh.items)
		return
	}
	if sh.items == nil {
		sh.items = make(map[string]string, len(p.items))
	}
	clear(sh.items)
	for i := range p.items {
		sh.items[p.items[i].key] = p.items[i].steady
	}
	sh.ok = true
}

// shortHeader is a header without its details: up to the first ", " or
// "; " (closing a parenthesis left open), without a trailing colon:
// "Observation (turn 4, from observe):" is "Observation (turn 4)".
func shortHeader(h string) string {
	h = strings.TrimSuffix(h, ":")
	if i := strings.IndexAny(h, ",;"); i >= 0 {
		h = h[:i]
		if strings.Count(h, "(") > strings.Count(h, ")") {
			h += ")"
		}
	}
	return h
}

func (p *piece) has(key string) bool {
	for i := range p.items {
		if p.items[i].key == key {
			return true
		}
	}
	return false
}
