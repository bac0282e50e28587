package memory

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLineFormat(t *testing.T) {
	cases := []struct {
		line string
		want Entry
		ok   bool
	}{
		{"- [0.82 2026-11-30 t3] Pull the drawer fully.", Entry{Text: "Pull the drawer fully.", Confidence: 0.82, Task: "t3"}, true},
		{"- [1 2026-11-30] Sure.", Entry{Text: "Sure.", Confidence: 1}, true},
		{"- [0.5 2026-11-30 run-20261130:t2] x", Entry{Text: "x", Confidence: 0.5, Task: "run-20261130:t2"}, true},
		// Not a stamp: a person's line, pinned.
		{"- [user-preference] Tea, not coffee.", Entry{Text: "[user-preference] Tea, not coffee.", Confidence: 1, Pinned: true}, true},
		{"- [1.5 2026-11-30] x", Entry{Text: "[1.5 2026-11-30] x", Confidence: 1, Pinned: true}, true},
		{"- [0.5 2026-13-40] x", Entry{Text: "[0.5 2026-13-40] x", Confidence: 1, Pinned: true}, true},
		{"* A star bullet", Entry{Text: "A star bullet", Confidence: 1, Pinned: true}, true},
		{"Plain prose.", Entry{Text: "Plain prose.", Confidence: 1, Pinned: true}, true},
		{"# Tool experience: pick_up", Entry{}, false},
		{"   ", Entry{}, false},
	}
	for _, c := range cases {
		got, ok := parseLine(c.line)
		got.Date = c.want.Date // compared below
		if ok != c.ok || got != c.want {
			t.Errorf("parseLine(%q) = %+v %v, want %+v %v", c.line, got, ok, c.want, c.ok)
		}
	}
	e := Entry{Text: "x", Confidence: 0.8, Date: day, Task: "t1"}
	if e.render() != "- [0.80 2026-11-30 t1] x" {
		t.Fatalf("render %q", e.render())
	}
}

func TestNormalise(t *testing.T) {
	for _, s := range []string{"The user prefers tea.", "the user prefers tea", "  The   USER prefers tea!", "The user\nprefers tea;"} {
		if normalise(s) != "the user prefers tea" {
			t.Errorf("normalise(%q) = %q", s, normalise(s))
		}
	}
}

// Rendered entries read back as written, whatever their text.
func FuzzEntryRoundTrip(f *testing.F) {
	f.Add("Pull the drawer fully.", 0.82, "t3")
	f.Add("- [0.5 2026-01-01] nested", 1.0, "")
	f.Add("]]] [[[", 0.0, "x")
	f.Fuzz(func(t *testing.T, text string, conf float64, task string) {
		clean, err := cleanText(text)
		if err != nil || !(conf >= 0 && conf <= 1) || (task != "" && !taskRE.MatchString(task)) || !utf8.ValidString(clean) {
			return
		}
		e := Entry{Text: clean, Confidence: conf, Date: day, Task: task}
		got, ok := parseLine(e.render())
		if !ok || got.Pinned || got.Text != clean || got.Task != task || !got.Date.Equal(dayOf(day)) {
			t.Fatalf("%q read back as %+v %v", e.render(), got, ok)
		}
		if d := got.Confidence - conf; d > 0.0051 || d < -0.0051 { // two decimals, half to even
			t.Fatalf("confidence %v read back as %v", conf, got.Confidence)
		}
	})
}

// Model output is untrusted: parsing never panics, and whatever it accepts
// is a valid candidate.
func FuzzParseCandidates(f *testing.F) {
	f.Add(`{"candidates":[{"scope":"memory","entry":"x","confidence":0.9}]}`)
	f.Add("```json\n{\"candidates\":[{\"scope\":\"tool\",\"tool\":\"pick_up\",\"entry\":\"y\",\"confidence\":1}]}\n```")
	f.Add(`text {"candidates":[]} text`)
	f.Add(`{"candidates":[{"scope":"tool","tool":"../x","entry":"y","confidence":1}]}`)
	tools := []string{"pick_up", "open_drawer"}
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := parseCandidates(s, tools)
		if err != nil {
			return
		}
		for _, c := range cs {
			if c.Confidence < 0 || c.Confidence > 1 || c.Entry == "" || strings.ContainsAny(c.Entry, "\n\r") ||
				utf8.RuneCountInString(c.Entry) > MaxEntryChars {
				t.Fatalf("accepted %+v", c)
			}
			if (c.Scope == ScopeTool) != slices.Contains(tools, c.Tool) || (c.Scope != ScopeTool && c.Scope != ScopeMemory) {
				t.Fatalf("accepted %+v", c)
			}
		}
	})
}
