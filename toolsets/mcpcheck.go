package toolsets

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/thea-harness/thea/schema"
)

// checkCommand reports a stdio command that cannot start: a name not on
// PATH (with the closest name that is), or a path ("./server") that does not
// exist or is not executable, resolved like the process will be: relative to
// cwd, else to the spec's directory.
func checkCommand(c *schema.Check, ts MCPConfig) {
	if len(ts.Command) == 0 || ts.Command[0] == "thea" {
		return
	}
	name := ts.Command[0]
	if !strings.ContainsRune(name, '/') {
		if _, err := exec.LookPath(name); err != nil {
			c.Errorf(".command[0]", "command %q is not found on PATH%s", name, schema.Suggest(name, pathNames(name)))
		}
		return
	}
	dir := c.Dir
	if ts.Cwd != "" {
		dir = c.Resolve(ts.Cwd)
	}
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	info, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c.Errorf(".command[0]", "command %q does not exist (looked for %s)", name, p)
	case err != nil:
		c.Errorf(".command[0]", "command %q: %v", name, err)
	case info.IsDir() || info.Mode()&0o111 == 0:
		c.Errorf(".command[0]", "command %q is not an executable file (%s)", name, p)
	}
}

// pathNames lists the executables on PATH whose names are close in length to
// name, for a suggestion.
func pathNames(name string) []string {
	var out []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue // an unreadable PATH entry has nothing to suggest
		}
		for _, e := range entries {
			if n := e.Name(); len(n) >= len(name)-2 && len(n) <= len(name)+2 {
				out = append(out, n)
			}
		}
	}
	return out
}

// warnOpenTools names the risk of an mcp toolset without a tools list: the
// model is offered every tool the server has, and names in contracts and
// hooks can only be checked against the running server.
func warnOpenTools(c *schema.Check, ts schema.Toolset, mc MCPConfig) {
	if len(ts.Tools) > 0 || len(mc.Command) == 0 && mc.URL == "" {
		return // listed, or already reported as having no back-end at all
	}
	c.Warnf("", "no tools list: every tool the back-end has is offered to the model, also ones nobody reviewed, and tool names in contracts, hooks and tests are checked only by `thea validate --live`; list the tools to offer (tools: [...])")
}

// validateMCP checks an mcp toolset and its own section, typed.
func validateMCP(c *schema.Check) { schema.Typed(checkMCP)(c) }

func checkMCP(c *schema.Check, ts schema.Toolset, mc MCPConfig) {
	switch {
	case len(mc.Command) == 0 && mc.URL == "":
		c.ErrorfAtKey("", "an mcp toolset needs command (stdio) or url (streamable HTTP)")
	case len(mc.Command) > 0 && mc.URL != "":
		c.ErrorfAtKey(".url", "an mcp toolset has command or url, not both")
	}
	if mc.URL != "" && (mc.Cwd != "" || len(mc.Env) > 0 || len(mc.EnvPassthrough) > 0) {
		c.ErrorfAtKey(".url", "cwd, env and env_passthrough apply only to a command")
	}
	name := strings.TrimPrefix(c.Path, "toolsets.")
	switch {
	case mc.Stop != nil && len(ts.Tools) > 0 && !slices.Contains(ts.Tools, mc.Stop.Tool):
		c.Errorf(".stop.tool", "the stop tool %q is not in toolsets.%s.tools (%s): add it there", mc.Stop.Tool, name, strings.Join(ts.Tools, ", "))
	case mc.Stop == nil:
		// Only the toolsets section is certain here; contracts may be
		// partial when another section is broken.
		if phys := c.Spec.PhysicalToolsOf(name); len(phys) > 0 {
			c.WarnfAtKey("", "serves physical tools (%s) but declares no stop tool: after a timeout or cancellation the harness can only kill and restart the back-end after stop_grace (%s); declare stop: {tool: ...} (e.g. the back-end's cancel_motion)",
				strings.Join(phys, ", "), ts.StopGrace.D())
		}
	}
	checkCommand(c, mc)
	warnOpenTools(c, ts, mc)
}
