package report

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

const hostile = `"><img src=x onerror=alert(1)><script>alert("x")</script>`

// writeRun writes a run directory: each event with the image files it names.
func writeRun(t *testing.T, lines []runlog.Line, files map[string][]byte) string {
	t.Helper()
	dir := t.TempDir()
	var b bytes.Buffer
	for _, l := range lines {
		j, err := json.Marshal(l)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(j, '\n'))
	}
	if err := os.WriteFile(filepath.Join(dir, "events.jsonl"), b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for x := range w {
		img.Set(x, h/2, color.RGBA{200, 30, 30, 255})
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// hostileRun is two turns and a compaction, with markup in every string a
// model, a back-end or a world file controls.
func hostileRun(t *testing.T) string {
	t0 := time.Date(2026, 11, 30, 1, 2, 3, 0, time.UTC)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	obs := &world.Observation{Summary: hostile, Images: []world.Image{
		{Camera: "head" + hostile, MIME: "image/png", Width: 32, Height: 24}, {Camera: "wrist", MIME: "image/png"}}}
	tokens := func(r, f, a int) *runlog.TokenCounts {
		return &runlog.TokenCounts{Resident: r, Refreshed: f, Accumulated: a, Total: r + f + a}
	}
	lines := []runlog.Line{
		{Event: runlog.Event{Kind: runlog.EventTaskStart, Time: at(0), Task: 3, Text: "Fetch " + hostile}},
		{Event: runlog.Event{Kind: runlog.EventObservation, Time: at(1), Task: 3, Turn: 1, Observation: obs},
			ImageFiles: []string{"turn0001-observation-head-1.png", "evil.png", "../secret.png"}},
		{Event: runlog.Event{Kind: runlog.EventContext, Time: at(1), Task: 3, Turn: 1, Tokens: tokens(1000, 800, 50)}},
		{Event: runlog.Event{Kind: runlog.EventModel, Time: at(2), Task: 3, Turn: 1, Text: hostile, Tool: "move_base",
			Args: map[string]any{"direction": "javascript:alert(1)", "distance_m": 1.0}}},
		{Event: runlog.Event{Kind: runlog.EventHook, Time: at(2), Task: 3, Turn: 1, Tool: "move_base", Hook: &runlog.Decision{
			Hook: "clamp" + hostile, Phase: "pre", Decision: runlog.DecisionClamp, Reason: hostile,
			Before: map[string]any{"distance_m": 1.0}, After: map[string]any{"distance_m": 0.4}}}},
		{Event: runlog.Event{Kind: runlog.EventToolCall, Time: at(2), Task: 3, Turn: 1, Tool: "move_base", Args: map[string]any{"distance_m": 0.4}}},
		{Event: runlog.Event{Kind: runlog.EventEvaluation, Time: at(3), Task: 3, Turn: 1, Tool: "move_base",
			Verdict: &world.Verdict{Status: world.VerdictFailure, Reason: "</pre></details>" + hostile, Source: "model"}}},
		{Event: runlog.Event{Kind: runlog.EventToolResult, Time: at(3), Task: 3, Turn: 1, Tool: "move_base",
			Result: &runlog.Envelope{Success: false, Reason: hostile}}},
		{Event: runlog.Event{Kind: runlog.EventCompaction, Time: at(4), Task: 3, Turn: 2, Compaction: &runlog.CompactionInfo{
			OK: true, Rounds: 1, MessagesBefore: 9, MessagesAfter: 3, TokensBefore: 2400, TokensAfter: 600, Kind: "checkpoint", Source: hostile}}},
		{Event: runlog.Event{Kind: runlog.EventContext, Time: at(4), Task: 3, Turn: 2, Tokens: tokens(1000, 800, 600)}},
		{Event: runlog.Event{Kind: runlog.EventModel, Time: at(5), Task: 3, Turn: 2, Text: "Done <b>now</b>."}},
		{Event: runlog.Event{Kind: runlog.EventDone, Time: at(5), Task: 3, Turn: 2, Text: "Done <b>now</b>.",
			Done: &runlog.Report{Text: "Done <b>now</b>." + hostile, Reason: runlog.DoneFinal, Turns: 2}}},
		{Event: runlog.Event{Kind: runlog.EventMemory, Time: at(6), Task: 3, Turn: 2, Text: "2 lessons written"}},
	}
	return writeRun(t, lines, map[string][]byte{
		"turn0001-observation-head-1.png": pngBytes(t, 32, 24),
		"evil.png":                        []byte("<html><script>alert(1)</script></html>"),
	})
}

func render(t *testing.T, dir string) (string, *html.Node) {
	t.Helper()
	var b bytes.Buffer
	if err := Write(t.Context(), &b, dir); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	return b.String(), doc
}

func walk(n *html.Node, f func(*html.Node)) {
	f(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, f)
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// textOf is an element's text content.
func textOf(n *html.Node) string {
	var b strings.Builder
	walk(n, func(c *html.Node) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	})
	return b.String()
}

// The page is self-contained and inert: no script, no external resource,
// no event handler; every hostile string is text; every turn, its images,
// the chart with its compaction and the report are there.
func TestPageStructure(t *testing.T) {
	page, doc := render(t, hostileRun(t))
	turns := map[string]bool{}
	var imgs, polygons, marks int
	var problems string
	walk(doc, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		switch n.Data {
		case "script", "iframe", "object", "embed", "link", "base", "form":
			t.Errorf("a <%s> element in the page", n.Data)
		case "section":
			turns[attr(n, "id")] = true
		case "img":
			imgs++
			if !strings.HasPrefix(attr(n, "src"), "data:image/png;base64,") {
				t.Errorf("img src %.40q is not an inline PNG", attr(n, "src"))
			}
		case "polygon":
			polygons++
		case "g":
			if attr(n, "class") == "compaction" {
				marks++
				if !strings.Contains(textOf(n), "compaction ~2400 → ~600 tokens") {
					t.Errorf("compaction mark title: %q", textOf(n))
				}
			}
		case "ul":
			if attr(n, "class") == "problems" {
				problems = textOf(n)
			}
		}
		for _, a := range n.Attr {
			v := strings.ToLower(strings.TrimSpace(a.Val))
			if strings.HasPrefix(a.Key, "on") {
				t.Errorf("event handler attribute %s=%q on <%s>", a.Key, a.Val, n.Data)
			}
			if (a.Key == "href" && !strings.HasPrefix(v, "#")) || (a.Key == "src" && !strings.HasPrefix(v, "data:image/")) {
				t.Errorf("<%s %s=%.60q>: only in-page links and inline images", n.Data, a.Key, a.Val)
			}
		}
	})
	for _, bad := range []string{"http://", "https://", "url(", "@import", "javascript:alert(1)\""} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
	if !turns["turn-1"] || !turns["turn-2"] || len(turns) != 2 {
		t.Errorf("turn sections: %v, want turn-1 and turn-2", turns)
	}
	if imgs != 1 || polygons != 3 || marks != 1 {
		t.Errorf("%d images (want 1), %d lifetime bands (want 3), %d compaction marks (want 1)", imgs, polygons, marks)
	}
	if !strings.Contains(problems, "evil.png: content is text/html") || !strings.Contains(problems, `"../secret.png": not a file name`) {
		t.Errorf("problems: %q", problems)
	}
	body := textOf(doc)
	for _, want := range []string{"Fetch " + hostile, "Done <b>now</b>." + hostile, "clamp" + hostile, "2 lessons written", "~4250"} {
		if !strings.Contains(body, want) {
			t.Errorf("page text lacks %q", want)
		}
	}
	if !strings.Contains(page, `Content-Security-Policy" content="default-src 'none'; img-src data:`) {
		t.Error("no content security policy: a page opened from disk must not fetch anything")
	}
}

// A run log that is not one fails with the line that is wrong.
func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(t.Context(), dir); err == nil || !strings.Contains(err.Error(), "events.jsonl") {
		t.Errorf("no events.jsonl: %v", err)
	}
	for body, want := range map[string]string{
		"":                                      "no events",
		"{\"kind\":\"task_start\"}\nnot json\n": "events.jsonl:2: not an event",
		"{\"text\":\"no kind\"}\n":              "events.jsonl:1: an event without a kind",
	} {
		if err := os.WriteFile(filepath.Join(dir, "events.jsonl"), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(t.Context(), dir); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", body, err, want)
		}
	}
}

// Whatever events.jsonl holds, loading never panics and a page that
// renders holds no script.
func FuzzLoad(f *testing.F) {
	f.Add([]byte(`{"kind":"model","turn":1,"text":"<script>x</script>"}` + "\n"))
	f.Add([]byte(`{"kind":"context","turn":1,"tokens":{"total":-5,"resident":-1}}` + "\n" + `{"kind":"compaction","turn":2,"compaction":{"ok":false}}`))
	f.Add([]byte(`{"kind":"observation","turn":1,"image_files":["../x","a.png"]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "events.jsonl"), b, 0o600); err != nil {
			t.Fatal(err)
		}
		r, err := Load(t.Context(), dir)
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := Render(&out, Build(r)); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(strings.ToLower(out.String()), "<script") {
			t.Fatal("a script element in the page")
		}
	})
}
