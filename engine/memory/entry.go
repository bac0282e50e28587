package memory

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxEntryChars bounds one entry's text; a longer candidate is malformed.
const MaxEntryChars = 500

// dateLayout is the stamp's date: a day is enough to order lessons, and the
// position in the file orders entries of one day.
const dateLayout = "2006-01-02"

// Entry is one line of a memory file.
//
// A written entry is stamped: "- [0.82 2026-11-30 t3] text" holds its
// confidence, the day it was written and the task that wrote it (a token of
// letters, digits and _ . : -; optional). Any other non-blank line that is
// not a "#" heading is a pinned entry: a person wrote it, the machine never
// merges or rewrites it, and summaries show it first.
type Entry struct {
	Text       string
	Confidence float64
	Date       time.Time // zero for a pinned entry
	Task       string
	Pinned     bool
	line       int // index in doc.lines
}

var stampRE = regexp.MustCompile(`^- \[([01](?:\.[0-9]{1,4})?) ([0-9]{4}-[0-9]{2}-[0-9]{2})(?: ([A-Za-z0-9_.:-]{1,64}))?\] (\S.*)$`)

// taskRE is what a task stamp may hold.
var taskRE = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,64}$`)

// parseLine reads one line; ok is false for blank lines and headings.
func parseLine(s string) (Entry, bool) {
	s = strings.TrimRight(s, " \t\r")
	if strings.TrimSpace(s) == "" || strings.HasPrefix(s, "#") {
		return Entry{}, false
	}
	if m := stampRE.FindStringSubmatch(s); m != nil {
		c, err := strconv.ParseFloat(m[1], 64)
		d, derr := time.Parse(dateLayout, m[2])
		if err == nil && derr == nil && c >= 0 && c <= 1 {
			return Entry{Text: m[4], Confidence: c, Date: d, Task: m[3]}, true
		}
	}
	t := strings.TrimSpace(s)
	for _, p := range []string{"- ", "* "} {
		t = strings.TrimPrefix(t, p)
	}
	return Entry{Text: strings.TrimSpace(t), Confidence: 1, Pinned: true}, true
}

// render is the stamped line of a written entry.
func (e Entry) render() string {
	stamp := strconv.FormatFloat(e.Confidence, 'f', 2, 64) + " " + e.Date.Format(dateLayout)
	if e.Task != "" {
		stamp += " " + e.Task
	}
	return "- [" + stamp + "] " + e.Text
}

// cleanText collapses whitespace (an entry is one line) and bounds it.
func cleanText(s string) (string, error) {
	t := strings.Join(strings.Fields(s), " ")
	if t == "" {
		return "", fmt.Errorf("entry is empty")
	}
	if n := utf8.RuneCountInString(t); n > MaxEntryChars {
		return "", fmt.Errorf("entry is %d characters long, the bound is %d", n, MaxEntryChars)
	}
	return t, nil
}

// normalise is the duplicate key: case, whitespace and a trailing full stop
// do not make an entry new.
func normalise(s string) string {
	t := strings.ToLower(strings.Join(strings.Fields(s), " "))
	return strings.TrimRight(t, ".!;")
}

// doc is a parsed memory file: every line kept as written, and the entries
// found among them.
type doc struct {
	lines   []string
	entries []Entry
}

func parseDoc(text string) doc {
	var d doc
	text = strings.TrimRight(text, "\n")
	if text == "" {
		return d
	}
	d.lines = strings.Split(text, "\n")
	for i, l := range d.lines {
		if e, ok := parseLine(l); ok {
			e.line = i
			d.entries = append(d.entries, e)
		}
	}
	return d
}

func (d doc) String() string {
	if len(d.lines) == 0 {
		return ""
	}
	return strings.Join(d.lines, "\n") + "\n"
}

// has reports whether an entry with this normalised text is present.
func (d doc) has(text string) bool {
	k := normalise(text)
	return slices.ContainsFunc(d.entries, func(e Entry) bool { return normalise(e.Text) == k })
}

// add appends stamped entries, skipping those already present (also within
// the batch); it returns the indices in es of the ones added.
func (d *doc) add(es []Entry) []int {
	var added []int
	for i, e := range es {
		if d.has(e.Text) {
			continue
		}
		e.line = len(d.lines)
		d.lines = append(d.lines, e.render())
		d.entries = append(d.entries, e)
		added = append(added, i)
	}
	return added
}

// ranked orders entries for reading back: pinned first (a person wrote
// them; in file order), then newest day first, then most confident, then latest in the file.
func ranked(es []Entry) []Entry {
	out := slices.Clone(es)
	slices.SortStableFunc(out, func(a, b Entry) int {
		switch {
		case a.Pinned && b.Pinned:
			return a.line - b.line
		case a.Pinned != b.Pinned:
			if a.Pinned {
				return -1
			}
			return 1
		case !a.Date.Equal(b.Date):
			return b.Date.Compare(a.Date)
		case a.Confidence != b.Confidence:
			if a.Confidence > b.Confidence {
				return -1
			}
			return 1
		default:
			return b.line - a.line
		}
	})
	return out
}
