package openai

import (
	"fmt"
	"strings"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/model/call"
	"github.com/thea-harness/thea/schema"
)

// Default base URLs by provider.
const (
	OpenAIBaseURL = "https://api.openai.com/v1"
	OllamaBaseURL = "http://localhost:11434/v1"
	GoogleBaseURL = "https://generativelanguage.googleapis.com/v1beta/openai/"
)

// provider describes one spec provider this package serves: where it is
// served by default and what it needs. Everything that differs between
// "openai", "ollama" and "google" is here, so the adapter never switches on
// a provider's name.
type provider struct {
	name, doc string
	baseURL   string
	// keyRequired: the spec must name api_key_env.
	keyRequired func(cfg schema.Model) bool
	// keyless: a named variable that is empty or unset is no error (a local
	// server that needs no key).
	keyless bool
	// tokenLimitField is the field max_tokens travels in for a model no
	// family claims.
	tokenLimitField func(cfg schema.Model) string
}

func providers() []provider {
	return []provider{
		{
			name: "openai", baseURL: OpenAIBaseURL,
			doc:         "OpenAI's chat completions, or any OpenAI-compatible server at base_url (vLLM, llama.cpp, LM Studio)",
			keyRequired: func(cfg schema.Model) bool { return cfg.BaseURL == "" }, // a local server may need none
			// OpenAI's own API takes the current field; compatible servers
			// (vLLM, llama.cpp, LM Studio, Azure's older API versions) know
			// the older one.
			tokenLimitField: func(cfg schema.Model) string {
				if cfg.BaseURL == "" || strings.Contains(cfg.BaseURL, "api.openai.com") {
					return fieldMaxCompletionTokens
				}
				return fieldMaxTokens
			},
		},
		{
			name: "ollama", baseURL: OllamaBaseURL, keyless: true,
			doc:             "a local Ollama server through its OpenAI-compatible endpoint (default " + OllamaBaseURL + ")",
			keyRequired:     func(schema.Model) bool { return false },
			tokenLimitField: func(schema.Model) string { return fieldMaxTokens },
		},
		{
			name: "google", baseURL: GoogleBaseURL,
			doc:             "Gemini through its OpenAI-compatible endpoint",
			keyRequired:     func(schema.Model) bool { return true },
			tokenLimitField: func(schema.Model) string { return fieldMaxTokens },
		},
	}
}

// providerNamed finds a provider's descriptor; "" is "openai".
func providerNamed(name string) (provider, error) {
	if name == "" {
		name = "openai"
	}
	var names []string
	for _, p := range providers() {
		if p.name == name {
			return p, nil
		}
		names = append(names, p.name)
	}
	return provider{}, fmt.Errorf("openai adapter: provider %q is not served here (%s)", name, strings.Join(names, ", "))
}

// Providers are the spec provider names this package serves.
func Providers() []string {
	var out []string
	for _, p := range providers() {
		out = append(out, p.name)
	}
	return out
}

// Components are the providers this package serves: "openai" (and any
// OpenAI-compatible server through base_url), "ollama" and "google" (their
// OpenAI-compatible endpoints).
func Components() []engine.Component {
	var out []engine.Component
	for _, p := range providers() {
		out = append(out, engine.ProviderKind{Name: p.name, Doc: p.doc, Validate: p.validate, New: p.new})
	}
	return out
}

// new is the constructor the engine calls; dir is unused.
func (p provider) new(cfg schema.Model, dir string) (model.Model, error) {
	m, err := p.build(cfg, call.Options{})
	if err != nil {
		return nil, err // not a typed nil inside the interface
	}
	return m, nil
}

// validate checks what New would refuse, at the spec's positions, and warns
// of a setting the model's family will not send.
func (p provider) validate(c *schema.Check) {
	m := c.Section.(*schema.Model)
	if m.Name == "" {
		c.ErrorfAtKey(".provider", "provider %q needs name: the model id the server knows (e.g. gpt-4o)", m.Provider)
	}
	if p.keyRequired(*m) && m.APIKeyEnv == "" {
		c.ErrorfAtKey(".provider", "provider %q needs api_key_env: the name of the environment variable holding the key", m.Provider)
	}
	f, err := familyFor(*m)
	if err != nil {
		c.Errorf(".wire.family", "%v", err)
		return
	}
	if m.Temperature != nil && f.noTemperature && m.Wire.Temperature == "" {
		c.WarnfAtKey(".temperature", "temperature %v is not sent: %s accept only their default (set wire.temperature: \"send\" to send it anyway)", *m.Temperature, f.about)
	}
}
