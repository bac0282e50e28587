package lifetimes

import (
	"fmt"
	"unicode/utf8"

	"github.com/thea-harness/thea/engine/model"
)

// Token estimation is a deliberately cheap heuristic, the same for every
// provider: one token per four characters of text (rounded up), a fixed
// overhead per message, and a fixed cost per image. It only has to be
// monotonic and roughly right for the compaction trigger; it is not billing.
const (
	charsPerToken   = 4
	messageOverhead = 4
	imageTokens     = 800
)

func textTokens(n int) int { return (n + charsPerToken - 1) / charsPerToken }

func estimateMessage(m *model.Message) int {
	n := messageOverhead
	for _, p := range m.Parts {
		n += textTokens(len(p.Text))
		if p.Image != nil {
			n += imageTokens
		}
	}
	for _, c := range m.ToolCalls {
		n += textTokens(len(c.Name) + len(c.Arguments))
	}
	return n
}

func estimateTools(defs []model.ToolDef) int {
	n := 0
	for _, d := range defs {
		n += textTokens(len(d.Name)+len(d.Description)+len(d.InputSchema)) + messageOverhead
	}
	return n
}

// BoundMiddle keeps the beginning and the end of s within max bytes, marking
// what was cut; verbose results keep both the call's setup and its outcome.
// The marker counts the characters it stands for, and where it would stand
// for fewer characters than it has itself, a plain cut ending in "…" is used.
func BoundMiddle(s string, limit int) string {
	if limit <= 0 || len(s) <= limit {
		return s
	}
	// Reserve room for the widest marker: its count is at most len(s).
	reserve := len(omission(len(s)))
	room := limit - reserve
	if room < 2 {
		return cutEllipsis(s, limit)
	}
	head := cutRune(s, room/2)
	tailLen := room - len(head)
	start := len(s) - tailLen
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	omitted := utf8.RuneCountInString(s[len(head):start])
	marker := omission(omitted)
	if omitted <= utf8.RuneCountInString(marker) {
		return cutEllipsis(s, limit)
	}
	return head + marker + s[start:]
}

func omission(n int) string { return fmt.Sprintf(" …[%d chars omitted]… ", n) }

// cutEllipsis cuts s to at most n bytes, ending in "…" when there is room.
func cutEllipsis(s string, n int) string {
	const ell = "…"
	if n <= len(ell) {
		return cutRune(s, n)
	}
	return cutRune(s, n-len(ell)) + ell
}

// cutRune returns the longest prefix of s of at most n bytes ending on a rune
// boundary.
func cutRune(s string, n int) string {
	if n >= len(s) {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
