package serve

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// farServerEnv makes the test binary a back-end whose observation puts the
// robot at the origin, a mug a metre ahead and a tower 300 km away.
const farServerEnv = "THEA_SERVE_TEST_FAR_MCP"

const farObservation = `{"pose": {"x": 0, "y": 0, "theta_deg": 0}, "clearance": {"front": 0.4},
 "detections": [{"name": "mug", "position": {"x": 1, "y": 0}, "visible": true},
                {"name": "tower", "position": {"x": 300000, "y": 0}, "visible": true}]}`

func serveFar() int {
	s := server.NewMCPServer("far", "0.0.1")
	s.AddTool(mcp.NewTool("look", mcp.WithDescription("what the robot sees")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(farObservation), nil
		})
	if err := server.ServeStdio(s); err != nil {
		return 1
	}
	return 0
}

// An object 300 km away, observed by a real back-end subprocess, does not
// size the console's map: the map is a bounded number of SVG elements (at
// most 20 grid lines per axis; before, 300,010 lines per observation), the
// robot and the mug a metre ahead of it stay a metre apart at a useful
// scale, and the tower is pinned to the map's edge and listed with its
// coordinates.
func TestConsoleMapOfAFarObjectIsBounded(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	f := startSpec(t, fmt.Sprintf(`name: kiosk
model: {provider: script, script: turns.yaml}
embodiment:
  name: kiosk
  cameras: []
  frames: []
  limits: {min_clearance_m: 0.3, safety_margin_m: 0.1}
observation: {tool: look}
loop: {stages: [task_notes, observe, compact, decide, execute, record]}
user: {channel: none}
run_log: {enabled: false}
toolsets:
  core: {kind: builtin}
  eyes:
    kind: mcp
    command: [%q]
    env: {%s: "1"}
`, exe, farServerEnv), "- text: Looked around.\n", Config{})
	b.open(f.base)
	b.typeInto("Instruction", "Look around")
	b.click("button", "Run")
	b.waitFor("the report", `document.getElementById('report-reason').textContent === 'final_answer'`)
	b.waitFor("the map", `!!document.querySelector('#map svg g[data-object="tower"]')`)

	type drawn struct {
		Elements int     `json:"elements"`
		GridX    int     `json:"gridX"`
		GridY    int     `json:"gridY"`
		Apart    float64 `json:"apart"`
		Outside  string  `json:"outside"`
		Tower    string  `json:"tower"`
		Note     string  `json:"note"`
	}
	d, err := chromedp.Run(b.ctx, chromedp.Evaluate[drawn](`(() => {
		const svg = document.querySelector('#map svg');
		const lines = [...svg.querySelectorAll('g.grid line')];
		const cx = (sel) => Number(svg.querySelector(sel + ' circle').getAttribute('cx'));
		const tower = svg.querySelector('g[data-object="tower"]');
		return {elements: svg.querySelectorAll('*').length,
			gridX: lines.filter(l => l.getAttribute('x1') === l.getAttribute('x2')).length,
			gridY: lines.filter(l => l.getAttribute('y1') === l.getAttribute('y2')).length,
			apart: cx('g[data-object="mug"]') - cx('g[data-ref="robot"]'),
			outside: tower.getAttribute('class'), tower: tower.querySelector('title').textContent,
			note: (document.querySelector('#map .map-outside') || {}).textContent || ''};
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the map of an object 300 km away: %d SVG elements, %d×%d grid lines", d.Elements, d.GridX, d.GridY)
	if d.GridX > 20 || d.GridY > 20 || d.Elements > 100 {
		t.Errorf("the map has %d SVG elements, %d vertical and %d horizontal grid lines; want at most 100, 20 and 20", d.Elements, d.GridX, d.GridY)
	}
	if d.Apart < 10 {
		t.Errorf("the mug, 1 m ahead, drawn %v units from the robot: the scale collapsed", d.Apart)
	}
	const where = "tower at (300000, 0)"
	if d.Outside != "object outside" || d.Note != "Outside the map: "+where || !strings.Contains(d.Tower, where+", outside the map") {
		t.Errorf("the tower: class %q, title %q, note %q; want it pinned to the edge and listed", d.Outside, d.Tower, d.Note)
	}
	if p := b.errors(); len(p) > 0 {
		t.Errorf("errors on the page: %q", p)
	}
}
