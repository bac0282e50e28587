package call

import "github.com/thea-harness/thea/schema"

// Endpoint is the part of a provider's config (schema.Model.Config) that
// every provider calling a model's HTTP API has: which model, where, with
// which key. A provider embeds it in its own config type and EndpointCUE in
// its CUE, beside its own fields (its temperature's range, its wire).
type Endpoint struct {
	Name      string `json:"name,omitempty"`
	BaseURL   string `json:"base_url,omitempty"`
	APIKeyEnv string `json:"api_key_env,omitempty"`
	// Temperature is nil when none is set: the model family's default
	// applies. Its range is the provider's (its own CUE).
	Temperature *float64 `json:"temperature,omitempty"`
	MaxTokens   int      `json:"max_tokens"`
}

var _ schema.ModelNamer = Endpoint{}

// ModelName is the model's name at the API, for the run log.
func (e Endpoint) ModelName() string { return e.Name }

// EndpointCUE is Endpoint's fields in CUE, for a provider's own CUE.
const EndpointCUE = `// The model's name at the API (e.g. "claude-sonnet-4-5", "gpt-4o",
// "qwen2.5vl:7b").
name?: string
// The API's address, for a self-hosted or proxied server (vLLM, llama.cpp, LM
// Studio, an Azure endpoint); empty: the provider's public endpoint.
base_url?: =~"^https?://"
// The environment variable holding the API key. The key itself never appears
// in the spec, and its value is redacted from every log.
api_key_env?: =~"^[A-Za-z_][A-Za-z0-9_]*$"
// The most tokens the model may write in one response.
max_tokens: (*4096 | int) & >0
`
