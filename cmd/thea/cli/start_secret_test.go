package cli_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// startFailArg makes the test binary a back-end that dies at start: it
// prints the secret it can read (its environment) and a redact-pattern
// match on stderr and exits before answering MCP's initialize.
const startFailArg = "start-fail-backend"

const (
	startToken = "tok-start-stderr-9f8e7d"
	startPW    = "pw-31337000"
)

func startFailBackend() int {
	fmt.Fprintf(os.Stderr, "arm: refusing to boot: token %s rejected, %s is wrong\n", os.Getenv("THEA_START_TOKEN"), startPW)
	return 3
}

const startFailSpec = `name: startfail
model: {provider: script, script: script.yaml}
embodiment:
  name: kiosk
  cameras: []
  frames: []
  limits: {min_clearance_m: 0.3, safety_margin_m: 0.1}
toolsets:
  core: {kind: builtin}
  arm: {kind: mcp, command: [thea, start-fail-backend], env_passthrough: [THEA_START_TOKEN]}
loop: {stages: [task_notes, observe, compact]}
user: {channel: none}
run_log: {secret_env: [THEA_START_TOKEN], redact: ['pw-[0-9]+']}
`

// A back-end that prints a secret_env value and a redact match on stderr
// and exits at start: every command that starts the session or its
// toolsets (run, run --json, validate --live, context, serve) fails with
// the back-end's last words, redacted.
func TestStartErrorIsRedacted(t *testing.T) {
	t.Setenv("THEA_START_TOKEN", startToken)
	work := t.TempDir()
	spec := filepath.Join(work, "spec.yaml")
	for name, body := range map[string]string{spec: startFailSpec, filepath.Join(work, "script.yaml"): "- text: done\n"} {
		if err := os.WriteFile(name, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	runs := filepath.Join(work, "runs")
	for name, args := range map[string][]string{
		"run":             {"run", "--spec", spec, "--run-log", runs, "do it"},
		"run --json":      {"run", "--json", "--spec", spec, "--run-log", runs, "do it"},
		"validate --live": {"validate", "--live", spec},
		"context":         {"context", "--spec", spec},
		"serve":           {"serve", "--spec", spec, "--addr", "127.0.0.1:0", "--run-log", runs},
	} {
		t.Run(name, func(t *testing.T) {
			code, out, errs := run(t, args...)
			if code == 0 {
				t.Fatalf("exit 0; stdout:\n%s\nstderr:\n%s", out, errs)
			}
			all := out + errs
			for _, s := range []string{startToken, startPW} {
				if strings.Contains(all, s) {
					t.Errorf("the output carries %q:\nstdout:\n%s\nstderr:\n%s", s, out, errs)
				}
			}
			// The back-end's words are still there, redacted: the cause
			// stays readable.
			if !strings.Contains(all, "refusing to boot: token [redacted] rejected, [redacted] is wrong") {
				t.Errorf("the output does not quote the back-end's stderr, redacted:\nstdout:\n%s\nstderr:\n%s", out, errs)
			}
		})
	}
}
