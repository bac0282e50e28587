package schema_test

import (
	"slices"
	"testing"

	"github.com/thea-harness/thea/schema"
)

// futureConfig is a kind nobody has written yet: its credential field is
// a secret by its name alone, in a typed field and in an open block.
type futureConfig struct {
	URL      string         `json:"url"`
	APIEnv   string         `json:"password_env"`
	Block    map[string]any `json:"block"`
	NotAName string         `json:"label"`
}

// Every field ending in _env names a secret, wherever it stands: each
// model's api_key_env, run_log.secret_env, a kind's own typed or open
// section; a value that is no variable name, and other fields, are not.
func TestSecretEnvIsEveryEnvField(t *testing.T) {
	s := &schema.Spec{
		Model:     schema.Model{Provider: "openai", APIKeyEnv: "MAIN_KEY"},
		Evaluator: schema.Evaluator{Model: &schema.Model{APIKeyEnv: "EVAL_KEY"}},
		Context:   schema.ContextConfig{Compaction: schema.Compaction{CompactionModel: &schema.Model{APIKeyEnv: "COMPACT_KEY"}}},
		Memory:    schema.Memory{Consolidation: schema.Consolidation{Model: &schema.Model{APIKeyEnv: "CONS_KEY"}}},
		RunLog:    schema.RunLog{SecretEnv: []string{"ARM_TOKEN", "MAIN_KEY"}},
		Toolsets: map[string]schema.Toolset{
			"ros": {Kind: "rosbridge", Config: struct {
				URL       string         `json:"url"`
				Rosbridge map[string]any `json:"rosbridge"`
			}{URL: "ws://x", Rosbridge: map[string]any{"token_env": "ROS_TOKEN", "tools": map[string]any{"dock": map[string]any{}}}}},
			"next": {Kind: "future", Config: futureConfig{URL: "https://x", APIEnv: "FUTURE_PW", NotAName: "LABEL",
				Block: map[string]any{"nested": map[string]any{"session_env": "FUTURE_SESSION", "bad_env": "not a name"}}}},
		},
	}
	want := []string{"ARM_TOKEN", "COMPACT_KEY", "CONS_KEY", "EVAL_KEY", "FUTURE_PW", "FUTURE_SESSION", "MAIN_KEY", "ROS_TOKEN"}
	if got := s.SecretEnv(); !slices.Equal(got, want) {
		t.Fatalf("SecretEnv() = %v, want %v", got, want)
	}
}
