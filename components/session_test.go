package components_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

const sessionSpec = `name: wired
system_prompt: You control a robot through tools, one tool call per turn.
model: {provider: script, script: turns.yaml}
embodiment:
  name: cart
  summary: A cart on a rail.
  limits: {max_translation_m: 1.0, min_clearance_m: 0.1, safety_margin_m: 0.05}
toolsets:
  core: {kind: builtin}
hooks:
  pre:
    - {name: no_notes, when: "tool.name == 'notify_user'", action: block, reason: quiet}
skills: {dirs: [skills]}
user: {channel: none}
memory: {consolidation: {enabled: false}}
run_log: {enabled: false}
loop: {stages: [task_notes, compact]}
scene_graph: {enabled: false}
`

// engine.New with what Session returns, and nothing else, is a complete
// session: the hook policy, the spec's skills (loaded from skills.dirs) and
// the profile as the renderer writes it all reach the model's request.
func TestSessionIsACompleteSession(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"spec.yaml":                 sessionSpec,
		"turns.yaml":                "- text: done\n",
		"skills/dock-cart/SKILL.md": "---\nname: dock-cart\ndescription: Drive the cart onto its charger.\n---\nBack in slowly.\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opts, err := components.Session(components.Options{})
	if err != nil {
		t.Fatal(err)
	}
	spec, diags := schema.Load([]string{filepath.Join(dir, "spec.yaml")}, schema.LoadOptions{
		Profiles: embodiments.Profiles(), Descriptors: opts.Components.Descriptors()})
	if spec == nil {
		t.Fatalf("spec: %v", diags)
	}
	h, err := engine.New(t.Context(), spec, opts)
	if err != nil {
		t.Fatalf("engine.New with components.Session: %v", err)
	}
	t.Cleanup(func() { _ = h.Close() })
	p, err := h.Preview(t.Context(), "Dock the cart")
	if err != nil {
		t.Fatal(err)
	}
	req, err := json.Marshal(p.Request)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"dock-cart", "Drive the cart onto its charger.", "Embodiment Profile: cart", "Cameras: none"} {
		if !strings.Contains(string(req), want) {
			t.Errorf("the first request lacks %q:\n%s", want, req)
		}
	}
	rep, err := h.Run(t.Context(), "Dock the cart")
	if err != nil || rep.Reason != runlog.DoneFinal {
		t.Fatalf("Run = %+v, %v", rep, err)
	}
}
