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

// pieceItem is one item: its key and its text (both within piece.text);
// changed is set by render.
type pieceItem struct {
	key, text string
	changed   bool
}

// shownPiece is what the model was last sent of a piece: each item's text
// by key. ok is false until a request stated the piece.
type shownPiece struct {
	ok    bool
	items map[string]string
}

// parsePiece splits text into a piece, reusing the items array of old
// (the piece it replaces: its items are not read again).
func parsePiece(text string, old []pieceItem) piece {
	p := piece{text: text, items: old[:0]}
	if text == "" {
		return p
	}
	header, rest, _ := strings.Cut(text, "\n")
	p.header = header
	if p.items == nil {
		p.items = make([]pieceItem, 0, strings.Count(rest, "\n")+1)
	}
	itemAt := 0 // where the last item starts in text
	for off := len(header) + 1; off < len(text); {
		end := strings.IndexByte(text[off:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += off
		}
		line := text[off:end]
		switch {
		case line == "":
		case line[0] == ' ' && len(p.items) > 0:
			// A continuation: the item runs on to the end of this line.
			p.items[len(p.items)-1].text = text[itemAt:end]
		default:
			key := line
			if i := strings.Index(line, ": "); i > 0 {
				key = line[:i]
			}
			itemAt = off
			p.items = append(p.items, pieceItem{key: uniqueKey(p.items, key), text: line})
		}
		off = end + 1
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

// sameFact reports whether a and b are the same text leaving aside the
// contents of square brackets (source stamps), except the word "stale".
func sameFact(a, b string) bool {
	for {
		i, j := strings.IndexByte(a, '['), strings.IndexByte(b, '[')
		if i < 0 || j < 0 {
			return a == b
		}
		if a[:i] != b[:j] {
			return false
		}
		ea, eb := strings.IndexByte(a[i:], ']'), strings.IndexByte(b[j:], ']')
		if ea < 0 || eb < 0 {
			return a[i:] == b[j:]
		}
		if strings.Contains(a[i:i+ea], "stale") != strings.Contains(b[j:j+eb], "stale") {
			return false
		}
		a, b = a[i+ea+1:], b[j+eb+1:]
	}
}

// render writes the piece: in full when the model has not seen it, when it
// has no items (a one-line note such as "observation unavailable") or when
// its changes would not be shorter; else its changes since it was shown.
func (p *piece) render(b *strings.Builder, sh *shownPiece) (full bool) {
	if !sh.ok || len(p.items) == 0 {
		b.WriteString(p.text)
		return len(p.items) > 0
	}
	changed, gone, digest := 0, len(sh.items), -1
	for i := range p.items {
		it := &p.items[i]
		v, ok := sh.items[it.key]
		if ok {
			gone--
		}
		it.changed = !ok || !sameFact(v, it.text)
		if it.changed {
			changed++
			if it.key == digestKey {
				digest = i
			}
		}
	}
	if changed == 0 && gone == 0 {
		writeShortHeader(b, p.header)
		b.WriteString(": unchanged")
		return false
	}
	// The digest says again in words what the other fields say: it is
	// restated when it is the one change, not beside the changes it
	// digests.
	if digest >= 0 && changed == 1 && gone == 0 {
		digest = -1
	}
	size := len(p.header) + len(changedNote)
	for i := range p.items {
		if it := &p.items[i]; it.changed {
			if i == digest {
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
	writeShortHeader(b, p.header)
	b.WriteString(changedNote)
	for i := range p.items {
		it := &p.items[i]
		if !it.changed {
			continue
		}
		b.WriteByte('\n')
		if i == digest {
			b.WriteString(it.key)
			b.WriteString(digestNote)
			continue
		}
		b.WriteString(it.text)
	}
	for i, k := range goneKeys {
		if i == 0 {
			b.WriteString(goneNote)
		} else {
			b.WriteString(", ")
		}
		b.WriteString(k)
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
		sh.items[p.items[i].key] = p.items[i].text
	}
	sh.ok = true
}

// writeShortHeader writes a header without its details: up to the first
// ", " or "; " (closing a parenthesis left open), without a trailing colon:
// "Observation (turn 4, from observe):" is "Observation (turn 4)".
func writeShortHeader(b *strings.Builder, h string) {
	h = strings.TrimSuffix(h, ":")
	if i := strings.IndexAny(h, ",;"); i >= 0 {
		h = h[:i]
		b.WriteString(h)
		if strings.Count(h, "(") > strings.Count(h, ")") {
			b.WriteByte(')')
		}
		return
	}
	b.WriteString(h)
}

func (p *piece) has(key string) bool {
	for i := range p.items {
		if p.items[i].key == key {
			return true
		}
	}
	return false
}
