package serve

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The smaller things an operator trips on: the placeholder is the spec's
// robot's, a spec without a Scene Graph says so, a call refused again and
// again is one line with a count, and Escape stops the running task.
func TestConsoleSpecTextFoldsAndEscape(t *testing.T) {
	b := newBrowser(t)
	f := start(t, "scene_graph: {enabled: false}\n", `
- tool_calls: [{name: no_such_tool, arguments: {}}]
- tool_calls: [{name: no_such_tool, arguments: {}}]
- tool_calls: [{name: query_user, arguments: {question: "Go on?", choices: ["yes"]}}]
`, Config{})
	b.open(f.base)
	b.waitFor("the placeholder", `document.getElementById('instruction').placeholder === 'What should kiosk do?'`)
	if got := b.evalString(`document.getElementById('brief').textContent`); !strings.Contains(got, "the spec turns it off (scene_graph.enabled: false)") {
		t.Errorf("the Brief of a spec without a Scene Graph: %q", got)
	}
	b.typeInto("Instruction", "Try")
	b.click("button", "Run")
	b.do("the question", chromedp.WaitVisible("", byName("button", "yes")))
	shown := b.evalString(`[...document.querySelectorAll('#trace-list li[data-kind="result"]')].filter(li => getComputedStyle(li).display !== 'none').map(li => li.textContent).join(' | ')`)
	if strings.Count(shown, " | ") != 0 || !strings.Contains(shown, "×2 (turns 1, 2)") {
		t.Errorf("the refused calls show as %q, want one line counting two", shown)
	}
	if got := b.evalString(`document.getElementById('brief').textContent`); !strings.Contains(got, "turns it off") {
		t.Errorf("the Brief during a task of a spec without a Scene Graph: %q", got)
	}
	b.do("Escape", chromedp.KeyEvent("\x1b"))
	// The stop unparks the question (its call fails: with the two before,
	// the failure budget may name the end) and ends the task.
	b.waitFor("the task ended", `!document.getElementById('report').hidden`)
	if got := b.evalString(traceText); !strings.Contains(got, "question 1 stopped") {
		t.Errorf("Escape did not stop the task: %q", got)
	}
	b.traceIDs()
	if p := b.errors(); len(p) > 0 {
		t.Errorf("errors on the page: %q", p)
	}
}
