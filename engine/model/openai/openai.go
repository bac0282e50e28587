package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/tmc/langchaingo/llms"
	lcopenai "github.com/tmc/langchaingo/llms/openai"

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

// Model is a chat-completions model. It is safe for concurrent use.
type Model struct {
	provider    string
	name        string
	temperature float64
	maxTokens   int
	// legacyMaxTokens sends max_tokens instead of max_completion_tokens:
	// OpenAI-compatible servers know the older field.
	legacyMaxTokens bool
	// fixedTemperature: a reasoning model that accepts only its default
	// temperature, which langchaingo's own list misses (o4-mini, o1).
	fixedTemperature bool
	llm              *lcopenai.LLM
}

var _ model.Model = (*Model)(nil)

// New builds the model a spec's model section describes. cfg.Provider is
// "openai", "ollama" or "google"; dir is unused.
func New(cfg schema.Model, dir string) (model.Model, error) {
	m, err := NewWithOptions(cfg, call.Options{})
	if err != nil {
		return nil, err // not a typed nil inside the interface
	}
	return m, nil
}

// NewWithOptions is New with an injected HTTP client, sleep and jitter.
func NewWithOptions(cfg schema.Model, o call.Options) (*Model, error) {
	provider := cfg.Provider
	if provider == "" {
		provider = "openai"
	}
	base, required, keyless := cfg.BaseURL, false, false
	switch provider {
	case "openai":
		required = base == "" // the hosted API needs a key; a local server may not
		if base == "" {
			base = OpenAIBaseURL
		}
	case "ollama":
		keyless = true
		if base == "" {
			base = OllamaBaseURL
		}
	case "google":
		required = true
		if base == "" {
			base = GoogleBaseURL
		}
	default:
		return nil, fmt.Errorf("openai adapter: provider %q is not served here (openai, ollama, google)", provider)
	}
	if cfg.Name == "" {
		return nil, fmt.Errorf("%s: model.name is required (the model id the server knows, e.g. gpt-4o)", provider)
	}
	if cfg.MaxTokens < 0 || cfg.Temperature < 0 {
		return nil, fmt.Errorf("%s: max_tokens and temperature must not be negative", provider)
	}
	key, err := call.APIKey(provider, cfg, required, keyless)
	if err != nil {
		return nil, err
	}
	var header func(http.Header)
	token := key
	if key == "" {
		// langchaingo refuses an empty token (and would then read
		// OPENAI_API_KEY); a keyless server gets no Authorization header.
		token = "unused"
		header = func(h http.Header) { h.Del("Authorization") }
	}
	client := call.New(call.PolicyFor(provider, cfg), o, header)
	llm, err := lcopenai.New(
		lcopenai.WithToken(token),
		lcopenai.WithModel(cfg.Name),
		lcopenai.WithBaseURL(strings.TrimSuffix(base, "/")),
		lcopenai.WithOrganization(""),
		lcopenai.WithAPIType(lcopenai.APITypeOpenAI),
		lcopenai.WithHTTPClient(client),
	)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", provider, err)
	}
	return &Model{
		provider: provider, name: cfg.Name, temperature: cfg.Temperature, maxTokens: cfg.MaxTokens,
		legacyMaxTokens:  provider != "openai" || (cfg.BaseURL != "" && !strings.Contains(cfg.BaseURL, "api.openai.com")),
		fixedTemperature: reasoningModel(cfg.Name),
		llm:              llm,
	}, nil
}

// Generate makes one chat-completions call (never streamed).
func (m *Model) Generate(ctx context.Context, req model.Request) (model.Response, error) {
	rd := newRenderer()
	msgs, err := rd.renderMessages(req.Messages)
	if err != nil {
		return model.Response{}, fmt.Errorf("%s: %w", m.provider, err)
	}
	opts, err := m.callOptions(req.Tools)
	if err != nil {
		return model.Response{}, fmt.Errorf("%s: %w", m.provider, err)
	}
	tr := &call.Trace{RewriteResponse: reasoningAlias}
	if rd.inline.Len() > 0 || m.fixedTemperature {
		tr.RewriteRequest = func(body []byte) ([]byte, error) {
			if m.fixedTemperature {
				var err error
				if body, err = dropTemperature(body); err != nil {
					return nil, err
				}
			}
			return rd.inline.Substitute(body)
		}
	}
	resp, err := m.llm.GenerateContent(call.WithTrace(ctx, tr), msgs, opts...)
	if err != nil {
		return model.Response{}, m.fail(ctx, tr, err)
	}
	out, err := decode(resp)
	if err != nil {
		return model.Response{}, fmt.Errorf("%s: %w", m.provider, err)
	}
	if len(out.ToolCalls) == 0 && resp.Choices[0].StopReason == "length" {
		// A decision cut off at max_tokens (thinking models spend it on
		// reasoning) is not a final answer.
		return model.Response{}, fmt.Errorf("%s: the answer was cut off at max_tokens (%d) before it finished; raise model.max_tokens", m.provider, m.maxTokens)
	}
	return out, nil
}

func (m *Model) callOptions(defs []model.ToolDef) ([]llms.CallOption, error) {
	opts := []llms.CallOption{
		llms.WithModel(m.name),
		llms.WithTemperature(m.temperature),
		llms.WithMaxTokens(m.maxTokens),
	}
	if m.legacyMaxTokens {
		opts = append(opts, llms.WithMetadata(map[string]any{"openai:use_legacy_max_tokens": true}))
	}
	if len(defs) > 0 {
		tools, err := renderTools(defs)
		if err != nil {
			return nil, err
		}
		opts = append(opts, llms.WithTools(tools))
	}
	return opts, nil
}

// fail turns a failed call into the engine's error: the caller's own
// cancellation as it is, the HTTP failure with status and message, or
// langchaingo's error.
func (m *Model) fail(ctx context.Context, tr *call.Trace, err error) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s: %w", m.provider, ctx.Err())
	}
	if tr.Err != nil {
		return tr.Err
	}
	if errors.Is(err, lcopenai.ErrEmptyResponse) {
		return fmt.Errorf("%s: the server answered with no choices", m.provider)
	}
	var syn *json.SyntaxError
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.As(err, &syn) {
		return fmt.Errorf("%s: the server's answer was not complete JSON (cut short or garbled): %w", m.provider, err)
	}
	return fmt.Errorf("%s: %w", m.provider, err)
}

func decode(resp *llms.ContentResponse) (model.Response, error) {
	if resp == nil || len(resp.Choices) == 0 {
		return model.Response{}, errors.New("the server answered with no choices")
	}
	c := resp.Choices[0]
	out := model.Response{Text: c.Content, Reasoning: c.ReasoningContent}
	for _, tc := range c.ToolCalls {
		if tc.FunctionCall == nil {
			continue
		}
		out.ToolCalls = append(out.ToolCalls, model.ToolCall{
			ID: tc.ID, Name: tc.FunctionCall.Name, Arguments: model.ArgumentsFromText(tc.FunctionCall.Arguments),
		})
	}
	info := c.GenerationInfo
	out.Usage = model.Usage{
		InputTokens:       intInfo(info, "PromptTokens"),
		CachedInputTokens: intInfo(info, "PromptCachedTokens"),
		OutputTokens:      intInfo(info, "CompletionTokens"),
	}
	return out, nil
}

func intInfo(info map[string]any, k string) int {
	if v, ok := info[k].(int); ok {
		return v
	}
	return 0
}

// reasoningAlias copies a message's "reasoning" (newer vLLM and Ollama) to
// "reasoning_content" (DeepSeek, older vLLM), the only name langchaingo
// reads, so either reaches Response.Reasoning.
func reasoningAlias(body []byte) ([]byte, error) {
	if !bytes.Contains(body, []byte(`"reasoning"`)) {
		return body, nil
	}
	var resp map[string]json.RawMessage
	if err := json.Unmarshal(body, &resp); err != nil {
		return body, nil // not JSON: langchaingo reports it
	}
	var choices []map[string]json.RawMessage
	if json.Unmarshal(resp["choices"], &choices) != nil {
		return body, nil
	}
	changed := false
	for _, c := range choices {
		var msg map[string]json.RawMessage
		if json.Unmarshal(c["message"], &msg) != nil {
			continue
		}
		r, ok := msg["reasoning"]
		if _, has := msg["reasoning_content"]; !ok || has || len(r) == 0 || r[0] != '"' {
			continue
		}
		msg["reasoning_content"] = r
		b, err := json.Marshal(msg)
		if err != nil {
			return nil, fmt.Errorf("reasoning: %w", err)
		}
		c["message"], changed = b, true
	}
	if !changed {
		return body, nil
	}
	b, err := json.Marshal(choices)
	if err != nil {
		return nil, fmt.Errorf("reasoning: %w", err)
	}
	resp["choices"] = b
	return json.Marshal(resp)
}

// Providers are the spec provider names this package serves.
func Providers() []string { return []string{"openai", "ollama", "google"} }

// Components are the providers this package serves: "openai" (and any
// OpenAI-compatible server through base_url), "ollama" and "google" (their
// OpenAI-compatible endpoints).
func Components() []engine.Component {
	docs := map[string]string{
		"openai": "OpenAI's chat completions, or any OpenAI-compatible server at base_url (vLLM, llama.cpp, LM Studio)",
		"ollama": "a local Ollama server through its OpenAI-compatible endpoint (default " + OllamaBaseURL + ")",
		"google": "Gemini through its OpenAI-compatible endpoint",
	}
	var out []engine.Component
	for _, name := range Providers() {
		out = append(out, engine.ProviderKind{Name: name, Doc: docs[name], Validate: validate, New: New})
	}
	return out
}

// validate checks what New would refuse, at the spec's positions.
func validate(c *schema.Check) {
	m := c.Section.(*schema.Model)
	if m.Name == "" {
		c.ErrorfAtKey(".provider", "provider %q needs name: the model id the server knows (e.g. gpt-4o)", m.Provider)
	}
	needsKey := m.Provider == "google" || (m.Provider == "openai" && m.BaseURL == "")
	if needsKey && m.APIKeyEnv == "" {
		c.ErrorfAtKey(".provider", "provider %q needs api_key_env: the name of the environment variable holding the key", m.Provider)
	}
}

// reasoningModel: OpenAI's o-series and gpt-5 models reject any temperature
// but their default. A name may carry a router's prefix ("openai/o4-mini").
func reasoningModel(name string) bool {
	n := strings.ToLower(name[strings.LastIndex(name, "/")+1:])
	return strings.HasPrefix(n, "gpt-5") || len(n) >= 2 && n[0] == 'o' && n[1] >= '0' && n[1] <= '9'
}

// dropTemperature removes the temperature langchaingo always sends. The body
// is small here: images are still placeholders.
func dropTemperature(body []byte) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		return nil, fmt.Errorf("request: %w", err)
	}
	if _, ok := m["temperature"]; !ok {
		return body, nil
	}
	delete(m, "temperature")
	return json.Marshal(m)
}
