package telemetry_test

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// secret is declared by the spec (run_log.secret_env); the model writes it
// into a tool's name, so it reaches every event kind a sink reads.
const secret = "TELEMETRYKEY-8c1e44d07a"

// specYAML: builtin tools, a scripted model, a pre-hook on notify_user.
const specYAML = `name: kiosk
model: {provider: script, script: turns.yaml}
embodiment:
  name: kiosk
  cameras: []
  frames: []
  limits: {min_clearance_m: 0.3, safety_margin_m: 0.1}
loop: {stages: [task_notes, compact]}
user: {channel: none}
run_log: {enabled: false, secret_env: [THEA_TELEMETRY_TEST_SECRET]}
toolsets:
  core: {kind: builtin}
hooks:
  pre: [{name: no_shouting, when: "tool.name == 'notify_user'", rule: "args.message == 'STOP'", action: block, reason: "no shouting"}]
`

// turns: a call that runs through its hook, a call of a tool the model
// made up (its name holds the secret), then the report.
const turns = `
- tool_calls: [{name: notify_user, arguments: {message: "hello"}}]
- tool_calls: [{name: "vault_` + secret + `", arguments: {}}]
- text: "Done."
`

// runTask runs one task of a real session whose events feed sinks.
func runTask(t *testing.T, sinks ...engine.SinkFactory) runlog.Report {
	t.Helper()
	t.Setenv("THEA_TELEMETRY_TEST_SECRET", secret)
	dir := t.TempDir()
	for name, text := range map[string]string{"spec.yaml": specYAML, "turns.yaml": turns} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	opts, err := components.Session(components.Options{Stdin: strings.NewReader(""), Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	spec, diags := schema.Load([]string{filepath.Join(dir, "spec.yaml")}, schema.LoadOptions{Descriptors: opts.Components.Descriptors()})
	if spec == nil {
		t.Fatalf("spec: %v", diags)
	}
	opts.Sinks = sinks
	h, err := engine.New(t.Context(), spec, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := h.Close(); err != nil {
			t.Error(err)
		}
	}()
	rep, err := h.Run(t.Context(), "say hello, then open the vault with "+secret)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Reason != runlog.DoneFinal || rep.Turns != 3 {
		t.Fatalf("the task ended %s after %d turns, want final_answer after 3: %s", rep.Reason, rep.Turns, rep.Text)
	}
	return rep
}
