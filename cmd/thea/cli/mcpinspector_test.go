package cli_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/internal/testutil"
)

// inspectorCLI is the MCP Inspector's CLI, pinned by the package-lock.json
// beside it and installed by CI (npm ci --prefix ... --ignore-scripts).
var inspectorCLI = filepath.Join("..", "..", "..", "mcpserve", "testdata", "inspector",
	"node_modules", "@modelcontextprotocol", "inspector-cli", "build", "index.js")

// inspect runs the Inspector CLI against thea mcp on spec (this test binary
// as thea) with args (--method ...) and returns its JSON answer.
func inspect(t *testing.T, spec string, args ...string) map[string]any {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cli, err := filepath.Abs(inspectorCLI)
	if err != nil {
		t.Fatal(err)
	}
	// The server's command, the Inspector's options, then the command's own
	// flags after "--" (the Inspector would take them for its own).
	argv := append(append([]string{cli, self, "mcp"}, args...), "--", "--spec", spec, "--run-log", t.TempDir())
	cmd := exec.Command("node", argv...)
	// The Inspector finds its own package.json through the working
	// directory ("../package.json" from its build folder).
	cmd.Dir = filepath.Dir(cli)
	cmd.Env = append(os.Environ(), ptyMainEnv+"=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("inspector %v: %v\nstderr:\n%s\nstdout:\n%s", args, err, stderr.String(), out)
	}
	var res map[string]any
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("inspector %v: not JSON: %v\n%s", args, err, out)
	}
	return res
}

// resultText is a tools/call answer's text.
func resultText(res map[string]any) string {
	var b []string
	content, _ := res["content"].([]any)
	for _, c := range content {
		if m, ok := c.(map[string]any); ok && m["type"] == "text" {
			s, _ := m["text"].(string)
			b = append(b, s)
		}
	}
	return strings.Join(b, "\n")
}

// The MCP Inspector (a client that is not ours) lists the household
// robot's tools with their hints and calls them over stdio: a clamped move
// says it was clamped, a blocked one says why, a pick comes back with a
// verdict.
func TestMCPInspectorCLI(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the MCP Inspector CLI cannot run (CI installs both)")
	}
	if _, err := os.Stat(inspectorCLI); err != nil {
		t.Skipf("the MCP Inspector CLI is not installed (npm ci --prefix mcpserve/testdata/inspector --ignore-scripts): %v", err)
	}
	spec := testutil.ExampleCopy(t, householdSpec)
	noReversing(t, spec)

	list := inspect(t, spec, "--method", "tools/list")
	tools, _ := list["tools"].([]any)
	hints := map[string]map[string]any{}
	for _, tl := range tools {
		m, _ := tl.(map[string]any)
		name, _ := m["name"].(string)
		a, _ := m["annotations"].(map[string]any)
		hints[name] = a
	}
	for name, physical := range map[string]bool{"move_base": true, "pick_up": true, "navigate_to": true, "notify_user": false, "observe": false} {
		a := hints[name]
		if a == nil || a["destructiveHint"] != physical || a["readOnlyHint"] != !physical {
			t.Errorf("%s: annotations %v, want destructiveHint %v and readOnlyHint %v", name, a, physical, !physical)
		}
	}

	clamped := resultText(inspect(t, spec, "--method", "tools/call", "--tool-name", "move_base",
		"--tool-arg", "direction=forward", "--tool-arg", "distance_m=5"))
	if !strings.Contains(clamped, "clamp") {
		t.Errorf("a 5 m move does not say it was clamped: %q", clamped)
	}
	blocked := resultText(inspect(t, spec, "--method", "tools/call", "--tool-name", "move_base",
		"--tool-arg", "direction=backward", "--tool-arg", "distance_m=0.3"))
	if !strings.Contains(blocked, "blocked by hook no_reversing") || !strings.Contains(blocked, "no rear camera") {
		t.Errorf("a backward move does not say why it was blocked: %q", blocked)
	}
	pick := resultText(inspect(t, spec, "--method", "tools/call", "--tool-name", "pick_up", "--tool-arg", "object_name=mug"))
	if !strings.Contains(pick, "verdict: ") {
		t.Errorf("a pick has no verdict: %q", pick)
	}
}
