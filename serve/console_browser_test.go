package serve

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

var updateConsolePNG = flag.Bool("update-console-png", false, "rewrite the manual's screenshots of the console (docs/images/console*.png) from the tests that take them")

// The household demo run from the page, as a newcomer would: type the
// instruction, press Run, watch. The trace shows the tool calls with their
// arguments and the hook decisions, the cameras show decoded frames, the
// Task Notes, the Brief and the back-ends' health fill in, and the report
// and a link to the run's report page end it. Nothing on the page errs.
func TestConsoleRunsTheHouseholdTask(t *testing.T) {
	b := newBrowser(t)
	f := startHousehold(t, nil, Config{})
	resp, err := chromedp.Run(b.ctx, chromedp.NavigateResponse(f.base+"/"))
	if err != nil {
		t.Fatal(err)
	}
	if csp, _ := resp.Headers["Content-Security-Policy"].(string); !strings.HasPrefix(csp, "default-src 'self'") {
		t.Errorf("the page's Content-Security-Policy is %q", csp)
	}
	b.do("the page loads", chromedp.WaitVisible("", byName("button", "Run")))
	b.waitFor("the session's name", `document.title.includes('household-sim')`)

	b.typeInto("Instruction", "Put the mug in the top drawer")
	b.click("button", "Run")
	b.waitFor("the report", `!document.getElementById('report').hidden && document.getElementById('report-reason').textContent === 'final_answer'`)

	trace := b.evalString(traceText)
	for _, want := range []string{
		"→ navigate_to", `{"target":"table"}`, // a tool call with its arguments
		"→ move_base", `{"direction":"forward","distance_m":0.5}`, // as the clamp left it
		"clamp_translation clamp", "distance_m clamped from 1 to 0.5", // the hook's decision and reason
		`✓ navigate_to {"arrived_at":"table"`,           // a result's value
		"✗ pick_up", "too far from the target to grasp", // a failed call
		"pick_up: success (by check)", // an evaluator's verdict
		"robot near place:table",      // a Scene Graph change
		"I have the mug",              // a notification
	} {
		if !strings.Contains(trace, want) {
			t.Errorf("the trace lacks %q", want)
		}
	}
	if n := b.evalInt(`document.querySelectorAll('#trace-list li[data-kind="call"]').length`); n != 9 {
		t.Errorf("%d tool calls in the trace, want 9", n)
	}
	if n := b.traceIDs(); n < 100 {
		t.Errorf("only %d events in the trace", n)
	}
	// Each camera's latest frame, fetched from the server and decoded.
	b.waitFor("the camera frames", `[...document.querySelectorAll('#camera-list img')].filter(i => i.complete && i.naturalWidth > 0).length === 2`)
	if got := b.evalString(`[...document.querySelectorAll('#camera-list figcaption')].map(c => c.textContent).join(' | ')`); !strings.Contains(got, "head · task 1, turn 10") || !strings.Contains(got, "wrist") {
		t.Errorf("camera captions %q", got)
	}
	for _, c := range []struct{ what, expr, want string }{
		{"the report", `document.getElementById('report-text').textContent`, "the top drawer of the kitchen cabinet"},
		{"the goal", `document.getElementById('notes-goal').textContent`, "Put the mug in the top drawer"},
		{"the timeline", `document.getElementById('notes-timeline').textContent`, "turn 1: Arrived"},
		{"the Brief", `document.getElementById('brief').textContent`, "Scene Graph Brief (turn 10"},
		{"the health", `document.getElementById('health').textContent`, "sim0 restart(s)"},
		{"the body lock", `document.getElementById('health').textContent`, "(wait) · free"},
		{"the turns", `document.getElementById('turns').textContent`, "10"},
		{"the state", `document.getElementById('state').textContent`, "idle"},
	} {
		if got := b.evalString(c.expr); !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q in it", c.what, got, c.want)
		}
	}
	// The link to `thea report`'s page of the run, served by the server.
	href := b.evalString(`document.getElementById('report-link').hidden ? '' : document.getElementById('report-link').getAttribute('href')`)
	if href != "/v1/tasks/1/report" {
		t.Fatalf("report link %q", href)
	}
	code, page := f.raw("GET", href, nil)
	if code != http.StatusOK || !strings.Contains(string(page), "the top drawer of the kitchen cabinet") {
		t.Errorf("GET %s: %d, %d bytes", href, code, len(page))
	}
	if p := b.errors(); len(p) > 0 {
		t.Errorf("errors on the page: %q", p)
	}

	// A page opened after the task ended shows its trace and its report.
	b.open(f.base)
	b.waitFor("the finished task's report", `document.getElementById('report-text').textContent.includes('the top drawer')`)
	b.traceIDs()
	// The report page opened from the link.
	b.do("following the report link", chromedp.Navigate(f.base+href), chromedp.WaitVisible("#turn-10"))
	if p := b.errors(); len(p) > 0 {
		t.Errorf("errors on the report page: %q", p)
	}
}

// The household world with a confirm hook on pick_up and a model that
// asks first: the page shows the question's candidate with its last view
// and its choice as a button; then each confirmation with the call, its
// arguments, the rule that asks and what the cameras saw. Block refuses the
// first grasp (the model reads why), Allow lets the second through. The
// The manual's screenshot (docs/images/console.png) is taken while the first confirmation waits.
func TestConsoleAllowsAndBlocksConfirmations(t *testing.T) {
	b := newBrowser(t)
	f := startHousehold(t, func(spec string) string {
		return strings.NewReplacer(`name:   "confirm_nothing"`, `name:   "confirm_grasp"`,
			`when:   "false"`, `when:   "tool.name == 'pick_up'"`, `prompt: "Allow this call?"`, `prompt: "Grasp it?"`,
			`script:   "episode.yaml"`, `script:   "asks.yaml"`, `consolidation: {enabled: true`, `consolidation: {enabled: false`).Replace(spec)
	}, Config{}, "asks.yaml", `
- text: "Driving to the table, where mugs usually are."
  tool_calls: [{name: navigate_to, arguments: {target: table}}]
- text: "There is a mug on the table; checking it is the one meant."
  tool_calls: [{name: query_user, arguments: {question: "Is this the mug you mean?", choices: ["That one"], refs: ["obj:mug"]}}]
- text: "Grasping the mug."
  tool_calls: [{name: pick_up, arguments: {object_name: mug}}]
- text: "The grasp was refused. Moving closer first."
  tool_calls: [{name: move_base, arguments: {direction: forward, distance_m: 1.0}}]
- tool_calls: [{name: pick_up, arguments: {object_name: mug}}]
- text: "Holding the mug."
`)
	b.open(f.base)
	b.typeInto("Instruction", "Fetch the mug")
	b.click("button", "Run")

	b.do("the question", chromedp.WaitVisible("", byName("button", "That one")))
	card := `document.querySelector('#pending-list [data-pending]')`
	if got := b.evalString(card + `.textContent`); !strings.Contains(got, "Is this the mug you mean?") || !strings.Contains(got, "obj:mug — ") {
		t.Errorf("the question shows %q", got)
	}
	b.waitFor("the candidate's last view", card+`.querySelector('img[alt="last view of obj:mug"]').naturalWidth > 0`)
	// A question takes the focus (its answer field) and the title.
	if id := b.evalString(`document.activeElement.id`); !strings.HasPrefix(id, "answer-") {
		t.Errorf("the focus is on %q while a question waits, want its answer field", id)
	}
	if title := b.evalString(`document.title`); !strings.HasPrefix(title, "⏸ Waiting for you: a question") {
		t.Errorf("title %q while a question waits", title)
	}
	b.click("button", "That one")

	b.do("the first confirmation", chromedp.WaitVisible("", byName("button", "Allow")))
	first := b.evalString(card + `.dataset.pending`)
	got := b.evalString(card + `.textContent`)
	for _, want := range []string{"Grasp it?", "Callpick_up", `Arguments{"object_name":"mug"}`, "Ruleconfirm_grasp", "head · turn 3"} {
		if !strings.Contains(got, want) {
			t.Errorf("the confirmation shows %q, want %q in it", got, want)
		}
	}
	b.waitFor("the frames it shows", card+`.querySelectorAll('img').length === 2 && [...`+card+`.querySelectorAll('img')].every(i => i.complete && i.naturalWidth > 0)`)
	if s := b.evalString(`document.getElementById('state').textContent`); s != "waiting for you" {
		t.Errorf("state %q while a confirmation waits", s)
	}
	// The confirmation takes the keyboard focus (its card, not Allow: no key
	// answers it) and the tab's title says what the robot waits for.
	if got := b.evalString(`document.activeElement.dataset.pending || document.activeElement.tagName`); got != first {
		t.Errorf("the focus is on %q while confirmation %s waits, want its card", got, first)
	}
	if title := b.evalString(`document.title`); title != "⏸ Waiting for you: allow pick_up? · Thea console · household-sim" {
		t.Errorf("title %q while a confirmation waits", title)
	}
	screenshot(t, b)

	b.click("button", "Block")
	b.waitFor("the refusal in the trace", traceText+`.includes('confirm_grasp block')`)
	b.waitFor("the second confirmation", card+` && `+card+`.dataset.pending !== '`+first+`'`)
	if n := b.evalInt(`document.querySelectorAll('#pending-list [data-pending]').length`); n != 1 {
		t.Errorf("%d confirmations shown, want the second only", n)
	}
	b.click("button", "Allow")
	b.waitFor("the report", `document.getElementById('report-reason').textContent === 'final_answer'`)
	if title := b.evalString(`document.title`); title != "Thea console · household-sim" {
		t.Errorf("title %q once nothing waits", title)
	}
	trace := b.evalString(traceText)
	for _, want := range []string{"✗ pick_up", "the user did not confirm the call", "confirm_grasp confirm", "✓ pick_up",
		"confirmation " + first + " answered", `"ref":"obj:mug"`} {
		if !strings.Contains(trace, want) {
			t.Errorf("the trace lacks %q", want)
		}
	}
	b.traceIDs()
	if p := b.errors(); len(p) > 0 {
		t.Errorf("errors on the page: %q", p)
	}
}

// screenshot saves the page as a PNG in the test's temp dir and, with
// -update-console-png, as docs/images/console.png in at most 256 colours
// (a small file for the manual).
func screenshot(t *testing.T, b *browser) { screenshotAs(t, b, "console.png") }

// screenshotAs is screenshot under another name.
func screenshotAs(t *testing.T, b *browser, name string) {
	t.Helper()
	shot, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(out, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", out, len(shot))
	if !*updateConsolePNG {
		return
	}
	small, err := fewColours(shot)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("..", "docs", "images", name), small, 0o644); err != nil {
		t.Fatal(err)
	}
}

// fewColours re-encodes a screenshot with its 256 most frequent colours
// (a page's flat colours survive; antialiased edges take the nearest).
func fewColours(shot []byte) ([]byte, error) {
	src, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		return nil, err
	}
	r := src.Bounds()
	count := map[color.RGBA]int{}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c, g, bl, _ := src.At(x, y).RGBA()
			count[color.RGBA{uint8(c>>8) &^ 7, uint8(g>>8) &^ 7, uint8(bl>>8) &^ 7, 255}]++
		}
	}
	colours := slices.SortedFunc(maps.Keys(count), func(a, b color.RGBA) int { return count[b] - count[a] })
	pal := make(color.Palette, 0, 256)
	for _, c := range colours[:min(256, len(colours))] {
		pal = append(pal, c)
	}
	dst := image.NewPaletted(r, pal)
	draw.Draw(dst, r, src, r.Min, draw.Src)
	var out bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&out, dst); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
