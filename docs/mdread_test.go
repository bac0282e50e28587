package docs

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// The little markdown reading the manual's checks need: headings and their
// GitHub anchors, links, and fenced blocks, all outside fenced code.

// link is one [text](target) or ![alt](target) of a page, at its line.
type link struct {
	Line   int
	Target string
}

var (
	linkRE       = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)\)`)
	codeSpanRE   = regexp.MustCompile("`[^`]*`")
	headingRE    = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	fenceOpenRE  = regexp.MustCompile("^\\s*(```|~~~)")
	schemeLinkRE = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// lines calls fn for every line of text outside fenced code blocks, with
// its 1-based number.
func lines(text string, fn func(n int, line string)) {
	fence := ""
	for i, l := range strings.Split(text, "\n") {
		if m := fenceOpenRE.FindStringSubmatch(l); m != nil {
			switch {
			case fence == "":
				fence = m[1]
				continue
			case m[1] == fence:
				fence = ""
				continue
			}
		}
		if fence == "" {
			fn(i+1, l)
		}
	}
}

// anchorsOf lists the anchors GitHub gives a page's headings: the heading's
// text lowercased, punctuation dropped, spaces turned to hyphens; a repeated
// anchor gets -1, -2, ….
func anchorsOf(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	lines(text, func(_ int, l string) {
		m := headingRE.FindStringSubmatch(l)
		if m == nil {
			return
		}
		a := slug(m[1])
		if n := seen[a]; n > 0 {
			out[a+"-"+strconv.Itoa(n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	})
	return out
}

// slug is GitHub's anchor of a heading's text.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// linksOf lists a page's links outside fenced blocks and code spans.
func linksOf(text string) []link {
	var out []link
	lines(text, func(n int, l string) {
		l = codeSpanRE.ReplaceAllString(l, "")
		for _, m := range linkRE.FindAllStringSubmatch(l, -1) {
			out = append(out, link{Line: n, Target: m[1]})
		}
	})
	return out
}

// fences counts a page's fenced code blocks.
func fences(text string) int {
	n, open := 0, ""
	for _, l := range strings.Split(text, "\n") {
		m := fenceOpenRE.FindStringSubmatch(l)
		switch {
		case m == nil:
		case open == "":
			open = m[1]
			n++
		case m[1] == open:
			open = ""
		}
	}
	return n
}

// external reports whether a link leaves the repository (https:, mailto:).
func external(target string) bool { return schemeLinkRE.MatchString(target) }
