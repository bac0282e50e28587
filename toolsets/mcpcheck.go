package toolsets

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/thea-harness/thea/schema"
)

// checkCommand reports a stdio command that cannot start: a name not on
// PATH (with the closest name that is), or a path ("./server") that does not
// exist or is not executable, resolved like the process will be: relative to
// cwd, else to the spec's directory.
func checkCommand(c *schema.Check, ts schema.Toolset) {
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
func warnOpenTools(c *schema.Check, ts schema.Toolset) {
	if len(ts.Tools) > 0 || len(ts.Command) == 0 && ts.URL == "" {
		return // listed, or already reported as having no back-end at all
	}
	c.Warnf("", "no tools list: every tool the back-end has is offered to the model, also ones nobody reviewed, and tool names in contracts, hooks and tests are checked only by `thea validate --live`; list the tools to offer (tools: [...])")
}
