package e2e_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/engine/model/call"
	"github.com/thea-harness/thea/models/anthropic"
	"github.com/thea-harness/thea/models/internal/wiretest"
	"github.com/thea-harness/thea/models/openai"
	"github.com/thea-harness/thea/schema"
)

// A model's max_tokens and timeout have one default, the schema's: what a
// request sends is the loaded plan's value (the default when the spec
// leaves it out, the spec's when it sets one), and a section that reaches
// a provider without them (built in Go) is refused, never guessed.
func TestModelDefaultsAreTheSchemas(t *testing.T) {
	replies := map[string]string{
		"anthropic": `{"type":"message","role":"assistant","content":[{"type":"text","text":"done"}],"stop_reason":"end_turn","usage":{"input_tokens":5,"output_tokens":2}}`,
		"ollama":    `{"id":"c1","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"done"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}`,
	}
	t.Setenv("THEA_TEST_KEY", "k")
	c := componentstest.Default(t)
	for _, provider := range []string{"anthropic", "ollama"} {
		for _, set := range []string{"", "max_tokens: 123\n  timeout: 7s\n"} {
			f := wiretest.New(t, wiretest.Reply(http.StatusOK, replies[provider]))
			s := loadModelSpec(t, fmt.Sprintf("model:\n  provider: %s\n  name: m\n  base_url: %s\n  api_key_env: THEA_TEST_KEY\n  %s", provider, f.URL+"/v1", set))
			var ep call.Endpoint
			switch cfg := s.Model.Config.(type) {
			case anthropic.Config:
				ep = cfg.Endpoint
			case openai.Config:
				ep = cfg.Endpoint
			default:
				t.Fatalf("%s: the plan's config is a %T", provider, s.Model.Config)
			}
			if set != "" && (ep.MaxTokens != 123 || s.Model.Timeout.D().String() != "7s") {
				t.Fatalf("%s: the plan has max_tokens %d, timeout %s; the spec set 123 and 7s", provider, ep.MaxTokens, s.Model.Timeout.D())
			}
			m, err := c.NewModel(s.Model, s.Dir)
			if err != nil {
				t.Fatalf("%s: %v", provider, err)
			}
			if _, err := m.Generate(t.Context(), wiretest.TurnRequest(0)); err != nil {
				t.Fatalf("%s: %v", provider, err)
			}
			if got := wiretest.Field(t, f.Requests()[0].Body, "max_tokens"); got != float64(ep.MaxTokens) {
				t.Errorf("%s (spec sets %q): the request sent max_tokens %v, the plan has %d", provider, set, got, ep.MaxTokens)
			}

			// The same section built in Go without the schema's values.
			noTokens := s.Model
			switch cfg := s.Model.Config.(type) {
			case anthropic.Config:
				cfg.MaxTokens = 0
				noTokens.Config = cfg
			case openai.Config:
				cfg.MaxTokens = 0
				noTokens.Config = cfg
			}
			noTimeout := s.Model
			noTimeout.Timeout = 0
			for want, sec := range map[string]schema.Model{"max_tokens is 0: it must be positive": noTokens, "model timeout is 0s: it must be positive": noTimeout} {
				if _, err := c.NewModel(sec, s.Dir); err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("%s without its schema default: err %v, want %q", provider, err, want)
				}
			}
		}
	}
}

// loadModelSpec loads a minimal spec with the given model section.
func loadModelSpec(t *testing.T, modelSection string) *schema.Spec {
	t.Helper()
	path := filepath.Join(t.TempDir(), "spec.yaml")
	body := "name: defaults\n" + modelSection + `
embodiment:
  name: body
  limits: {max_translation_m: 1, max_rotation_deg: 90, min_clearance_m: 0.3, safety_margin_m: 0.1, reach_m: 0.8, max_speed_mps: 0.5, payload_kg: 1}
toolsets:
  core: {kind: builtin}
`
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	s, diags := schema.Load([]string{path}, schema.LoadOptions{Descriptors: componentstest.Descriptors(t)})
	if s == nil || len(diags) > 0 {
		t.Fatalf("loading %s: %v", body, diags)
	}
	return s
}
