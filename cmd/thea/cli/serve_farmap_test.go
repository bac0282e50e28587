package cli_test

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/thea-harness/thea/internal/testtime"
)

// farArg makes the test binary serve farBackend over stdio: a real MCP
// subprocess whose observation puts a detection 1e9 m from the robot.
const farArg = "far-mcp"

// farX is where the far detection lies, in metres.
const farX = 1e9

func serveFar() error {
	s := server.NewMCPServer("far", "0.0.1")
	s.AddTool(mcp.NewTool("look", mcp.WithDescription("what the robot sees")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(fmt.Sprintf(`{"pose": {"x": 0, "y": 0, "theta_deg": 0},
 "detections": [{"name": "mug", "position": {"x": 1, "y": 0}, "visible": true},
                {"name": "beacon", "position": {"x": %g, "y": 2}, "visible": true}]}`, farX)), nil
		})
	if err := server.ServeStdio(s); err != nil {
		return fmt.Errorf("far server: %w", err)
	}
	return nil
}

// A real `thea serve` process runs a task against a back-end that reports
// a detection 1e9 m away; the task's report is a page under 256 KB that
// lists the far detection with its coordinates, and the server lives on:
// a second report and its status answer. (Before, drawing one grid line
// per metre of the map ran `thea serve` out of memory, and the robot's
// session with it.)
func TestServeReportsFarCoordinates(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, text := range map[string]string{
		"spec.yaml": fmt.Sprintf(`name: kiosk
model: {provider: script, script: turns.yaml}
embodiment:
  name: kiosk
  cameras: []
  frames: []
  limits: {min_clearance_m: 0.3, safety_margin_m: 0.1}
observation: {tool: look}
loop: {stages: [task_notes, observe, compact, decide, execute, record]}
user: {channel: none}
run_log: {dir: runs}
toolsets:
  core: {kind: builtin}
  eyes: {kind: mcp, command: [%q, %q], tools: [look]}
`, self, farArg),
		"turns.yaml": "- text: \"Looked around.\"\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	base, stop := startServeProcess(t, dir, "")
	// A bound on a hang, not a timed assertion.
	op := operator{t: t, base: base, client: &http.Client{Timeout: testtime.Scale(time.Minute)}}
	if code := op.do("POST", "/v1/tasks", `{"instruction": "look around"}`); code != http.StatusAccepted {
		t.Fatalf("submit: %d", code)
	}
	op.stream("/v1/tasks/1/events").until("done")

	const bound = 256 << 10
	for i := range 2 {
		code, page := op.fetch("GET", "/v1/tasks/1/report", "")
		if code != http.StatusOK {
			t.Fatalf("report %d: %d %.300s", i+1, code, page)
		}
		if len(page) > bound {
			t.Errorf("report %d: %d bytes, want under %d", i+1, len(page), bound)
		}
		if want := fmt.Sprintf("outside the map: beacon at (%g, 2)", farX); !strings.Contains(html.UnescapeString(string(page)), want) {
			t.Errorf("report %d does not say %q", i+1, want)
		}
		t.Logf("report %d: %d bytes", i+1, len(page))
	}
	if code := op.do("GET", "/v1/status", ""); code != http.StatusOK {
		t.Errorf("status after the reports: %d", code)
	}
	stop()
}
