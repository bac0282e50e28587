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

// endpoint is a provider's config with its key's variable.
type endpoint struct {
	Name      string `json:"name"`
	APIKeyEnv string `json:"api_key_env"`
}

func withKey(env string) schema.Model {
	return schema.Model{Provider: "openai", Config: endpoint{Name: "m", APIKeyEnv: env}}
}

// Every field ending in _env names a secret, wherever it stands: each
// model's api_key_env, run_log.secret_env, a kind's own typed or open
// section; a value that is no variable name, and other fields, are not.
func TestSecretEnvIsEveryEnvField(t *testing.T) {
	s := &schema.Spec{
		Model:     withKey("MAIN_KEY"),
		Evaluator: schema.Evaluator{Model: new(withKey("EVAL_KEY"))},
		Context:   schema.ContextConfig{Compaction: schema.Compaction{CompactionModel: new(withKey("COMPACT_KEY"))}},
		Memory:    schema.Memory{Consolidation: schema.Consolidation{Model: new(withKey("CONS_KEY"))}},
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
