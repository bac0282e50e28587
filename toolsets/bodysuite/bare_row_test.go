package bodysuite_test

import (
	"fmt"
	"os"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/internal/faultserver"
)

// The bare row: a toolset kind written in this test alone — its transport
// (bare_transport_test.go), its typed config and its CUE definition, and
// nothing else — registered as any kind is. It calls no part of the body
// layer and declares no motion rule; the engine starts it under the host's
// body layer, and every test of the suite holds on it. Its back-end is the
// fault server over a line protocol, this test binary as a subprocess.

const (
	// bareEnv makes the test binary serve the fault server over the line
	// protocol.
	bareEnv = "THEA_BODY_BARE_FAULTSERVER"
	// bareLingerEnv makes it outlive its closed stdin.
	bareLingerEnv = "THEA_BODY_BARE_LINGER"
)

// bareCUE is the bare kind's fields beyond every toolset's: #Transport is
// the body layer's (timeouts, restart, stop_grace, on_uncertain).
const bareCUE = `
#Transport

// The back-end: a subprocess speaking JSON lines on stdin and stdout.
command!: [#NonEmpty, ...#NonEmpty]
// Environment variables set for it, beside the caller's.
env?: [string]: string
// A tool of the back-end that stops every motion.
stop?: {
	tool!: #NonEmpty
	args?: {...}
	timeout: (*"2s" | string) & #Duration
}
`

// bareConfig is a bare toolset's own section, decoded once by the schema.
type bareConfig struct {
	Command []string          `json:"command"`
	Env     map[string]string `json:"env,omitempty"`
	Stop    *bareStop         `json:"stop,omitempty"`
}

type bareStop struct {
	Tool    string          `json:"tool"`
	Args    map[string]any  `json:"args,omitempty"`
	Timeout schema.Duration `json:"timeout"`
}

// bareKind is the whole registration: no Validate, Provides or LiveCheck
// (optional), nothing of the body layer, no locks.
func bareKind() engine.ToolsetKind {
	return engine.ToolsetKind{
		Name:      "bare",
		Doc:       "a test's minimal transport: JSON lines to a subprocess",
		Config:    bareConfig{},
		CUE:       bareCUE,
		Transport: openBare,
	}
}

func bareTransport() transport {
	return transport{
		name: "bare",
		kind: bareKind,
		toolset: func(self, dir string) schema.Toolset {
			return schema.Toolset{Kind: "bare", Config: bareConfig{Command: []string{self, "-test.run=^$"},
				Env: map[string]string{bareEnv: "1", faultserver.DirEnv: dir}}}
		},
		stop: func(ts *schema.Toolset, mode string, timeout time.Duration) {
			c := ts.Config.(bareConfig)
			c.Stop = bareStopOf(mode, schema.Duration(timeout))
			ts.Config = c
		},
		yaml: func(self, dir, stop, stopTimeout string) (string, []string) {
			section := fmt.Sprintf("    kind: bare\n    command: [%q, \"-test.run=^$\"]\n    env: {%s: \"1\", %s: %q}\n    tools: [observe, probe, move_base, cancel_motion]\n",
				self, bareEnv, faultserver.DirEnv, dir)
			switch stop {
			case "ok":
				section += fmt.Sprintf("    stop: {tool: cancel_motion, timeout: %s}\n", stopTimeout)
			case "hang":
				section += fmt.Sprintf("    stop: {tool: probe, args: {fault: hang}, timeout: %s}\n", stopTimeout)
			}
			return section, []string{"cancel_motion"}
		},
		stopRecord: func(mode string) (string, string, string) {
			st := bareStopOf(mode, 0)
			return runlog.StopViaTool, st.Tool, "stop tool " + st.Tool
		},
		stopFailed: func(mode string) string { return "the stop tool " + bareStopOf(mode, 0).Tool + " failed" },
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
		linger:  func(ts *schema.Toolset) { ts.Config.(bareConfig).Env[bareLingerEnv] = "1" },
		serve: func() (int, bool) {
			if os.Getenv(bareEnv) != "1" {
				return 0, false
			}
			if code := faultserver.MainLines(os.Getenv(faultserver.DirEnv)); code != 0 {
				return code, true
			}
			if os.Getenv(bareLingerEnv) == "1" {
				time.Sleep(time.Minute) // a driver stuck in a blocking call: only a signal ends it
			}
			return 0, true
		},
		spawns:    true,
		lastWords: true,
	}
}

// bareStopOf is the stop tool of a mode: cancel_motion ends every motion;
// probe's hang never answers.
func bareStopOf(mode string, timeout schema.Duration) *bareStop {
	switch mode {
	case "ok":
		return &bareStop{Tool: "cancel_motion", Timeout: timeout}
	case "hang":
		return &bareStop{Tool: "probe", Args: map[string]any{"fault": "hang"}, Timeout: timeout}
	}
	return nil
}
