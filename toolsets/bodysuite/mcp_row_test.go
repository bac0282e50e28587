package bodysuite_test

import (
	"fmt"
	"os"
	"time"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets"
	"github.com/thea-harness/thea/toolsets/internal/faultserver"
)

// The MCP transport's row: its fault server is faultserver over stdio, this
// test binary started as a subprocess.

const (
	// faultEnv makes the test binary serve the MCP fault server.
	faultEnv = "THEA_TOOLSETS_FAULTSERVER"
	// lingerEnv makes the fault server outlive its closed stdin.
	lingerEnv = "THEA_TOOLSETS_FAULT_LINGER"
)

func mcpTransport() transport {
	return transport{
		name: "mcp",
		kind: toolsets.MCPKind,
		toolset: func(self, dir string) schema.Toolset {
			return schema.Toolset{Kind: "mcp", Config: toolsets.MCPConfig{Command: []string{self, "-test.run=^$"},
				Env: map[string]string{faultEnv: "1", faultserver.DirEnv: dir}}}
		},
		stop: func(ts *schema.Toolset, mode string, timeout time.Duration) {
			c := ts.Config.(toolsets.MCPConfig)
			c.Stop = mcpStop(mode, schema.Duration(timeout))
			ts.Config = c
		},
		yaml: func(self, dir, stop, stopTimeout string) (string, []string) {
			section := fmt.Sprintf("    kind: mcp\n    command: [%q, \"-test.run=^$\"]\n    env: {%s: \"1\", %s: %q}\n    tools: [observe, probe, move_base, cancel_motion]\n",
				self, faultEnv, faultserver.DirEnv, dir)
			switch stop {
			case "ok":
				section += fmt.Sprintf("    stop: {tool: cancel_motion, timeout: %s}\n", stopTimeout)
			case "hang":
				section += fmt.Sprintf("    stop: {tool: probe, args: {fault: hang}, timeout: %s}\n", stopTimeout)
			}
			return section, []string{"cancel_motion"}
		},
		stopRecord: func(mode string) (string, string, string) {
			st := mcpStop(mode, 0)
			return runlog.StopViaTool, st.Tool, "stop tool " + st.Tool
		},
		stopFailed: func(mode string) string { return "the stop tool " + mcpStop(mode, 0).Tool + " failed" },
		stopped:    func(env runlog.Envelope) bool { return env.Value["stopped"] == true },
		killSays:   "kills and restarts the base back-end",
		observeFaults: map[string][]string{
			"bad":   {"no usable observation", `"ERROR: camera offline, no data"`},
			"array": {"no usable observation", "not a JSON object"},
			"types": {"no usable observation", "does not decode as an observation"},
			"empty": {"no usable observation", "none of the observation fields"},
		},
		rawMode: "bad",
		rawText: "ERROR: camera offline, no data",
		linger:  func(ts *schema.Toolset) { ts.Config.(toolsets.MCPConfig).Env[lingerEnv] = "1" },
		serve: func() (int, bool) {
			if os.Getenv(faultEnv) != "1" {
				return 0, false
			}
			if code := faultserver.Main(os.Getenv(faultserver.DirEnv)); code != 0 {
				return code, true
			}
			if os.Getenv(lingerEnv) == "1" {
				// Like a driver stuck in a blocking call: it does not notice
				// that its stdin closed. Only a signal ends it.
				time.Sleep(time.Minute)
			}
			return 0, true
		},
		spawns:    true,
		lastWords: true,
	}
}

// mcpStop is the stop tool of a mode: cancel_motion ends every motion;
// probe's hang never answers.
func mcpStop(mode string, timeout schema.Duration) *toolsets.StopTool {
	switch mode {
	case "ok":
		return &toolsets.StopTool{Tool: "cancel_motion", Timeout: timeout}
	case "hang":
		return &toolsets.StopTool{Tool: "probe", Args: map[string]any{"fault": "hang"}, Timeout: timeout}
	}
	return nil
}
