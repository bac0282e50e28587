package toolsets

import (
	_ "embed"
	"slices"

	"github.com/thea-harness/thea/schema"
)

// mcpCUE is the mcp kind's own fields, for the schema the build generates.
//
//go:embed mcp.cue
var mcpCUE string

// MCPConfig is an mcp toolset's own section (Toolset.Config): how its
// back-end is reached, and its stop tool.
type MCPConfig struct {
	// MCP over stdio. A command whose first word is "thea" runs this binary.
	Command []string          `json:"command,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	// EnvPassthrough lists the caller's environment variables the subprocess
	// may see; nothing else of the caller's environment is passed.
	EnvPassthrough []string `json:"env_passthrough,omitempty"`
	Cwd            string   `json:"cwd,omitempty"`
	// MCP over streamable HTTP.
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Stop is the deployment-owned interrupt: a tool of this back-end called
	// at once when a physical call times out, is cancelled, or the session
	// closes with one in flight.
	Stop *StopTool `json:"stop,omitempty"`
}

// StopTool names the tool that stops motion and how to call it.
type StopTool struct {
	Tool    string          `json:"tool"`
	Args    map[string]any  `json:"args,omitempty"`
	Timeout schema.Duration `json:"timeout"`
}

var _ schema.Launcher = MCPConfig{}

// CommandLine is the stdio back-end's command line (none over HTTP).
func (c MCPConfig) CommandLine() []string { return c.Command }

// WithCommandLine returns a copy of c started with argv.
func (c MCPConfig) WithCommandLine(argv []string) any {
	c.Command = slices.Clone(argv)
	return c
}
