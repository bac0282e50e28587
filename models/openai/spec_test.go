package openai_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/schema"
)

// The override as a user writes it: decoded into the typed section, the
// temperature left unset (nil) when the spec sets none.
func TestWireInASpec(t *testing.T) {
	path := filepath.Join(t.TempDir(), "spec.yaml")
	err := os.WriteFile(path, []byte(`name: azure
model:
  provider: openai
  name: prod-chat
  base_url: https://acme.openai.azure.com/openai/v1
  api_key_env: AZURE_OPENAI_KEY
  wire: {family: openai_reasoning}
evaluator:
  model: {provider: google, name: gemini-3-flash-preview, api_key_env: GEMINI_API_KEY, wire: {temperature: send}, temperature: 0.5}
embodiment:
  name: body
  limits: {max_translation_m: 1, max_rotation_deg: 90, min_clearance_m: 0.3, safety_margin_m: 0.1, reach_m: 0.8, max_speed_mps: 0.5, payload_kg: 1}
toolsets:
  core: {kind: builtin}
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	s, diags := schema.Load([]string{path}, schema.LoadOptions{Descriptors: componentstest.Descriptors(t)})
	if s == nil || len(diags) > 0 {
		t.Fatalf("diagnostics %v", diags)
	}
	if m := s.Model; m.Temperature != nil || m.Wire != (schema.ModelWire{Family: "openai_reasoning"}) {
		t.Fatalf("model %+v", m)
	}
	if e := s.Evaluator.Model; e == nil || e.Temperature == nil || *e.Temperature != 0.5 || e.Wire.Temperature != "send" {
		t.Fatalf("evaluator model %+v", e)
	}
}
