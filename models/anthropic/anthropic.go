package anthropic

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/tmc/langchaingo/llms"
	lcanthropic "github.com/tmc/langchaingo/llms/anthropic"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/model/call"
	"github.com/thea-harness/thea/schema"
)

// BaseURL is the Messages API's default base URL.
const BaseURL = "https://api.anthropic.com/v1"

// Model is an Anthropic Messages API model. It is safe for concurrent use.
type Model struct {
	name        string
	temperature float64
	// omitTemperature: the spec's wire.temperature is "omit".
	omitTemperature bool
	maxTokens       int
	llm             *lcanthropic.LLM
}

var _ model.Model = (*Model)(nil)

// New builds the model a spec's model section describes.
func New(m schema.Model, cfg Config) (model.Model, error) {
	built, err := NewWithOptions(m, cfg, call.Options{})
	if err != nil {
		return nil, err // not a typed nil inside the interface
	}
	return built, nil
}

// NewWithOptions is New with an injected HTTP client, sleep and jitter.
func NewWithOptions(m schema.Model, cfg Config, o call.Options) (*Model, error) {
	const provider = "anthropic"
	if m.Provider != "" && m.Provider != provider {
		return nil, fmt.Errorf("anthropic adapter: provider %q is not served here", m.Provider)
	}
	if cfg.Name == "" {
		return nil, fmt.Errorf("%s: model.name is required (e.g. claude-sonnet-4-5)", provider)
	}
	var temperature float64 // none set: 0, as for every standard family
	if cfg.Temperature != nil {
		temperature = *cfg.Temperature
	}
	if temperature < 0 || temperature > 1 {
		return nil, fmt.Errorf("%s: temperature %v is outside the API's range [0, 1]", provider, temperature)
	}
	switch cfg.Wire.Temperature {
	case "", "send", "omit":
	default:
		return nil, fmt.Errorf(`%s: model.wire.temperature %q is neither "send" nor "omit"`, provider, cfg.Wire.Temperature)
	}
	base := cfg.BaseURL
	key, err := call.APIKey(provider, cfg.Endpoint, base == "", false)
	if err != nil {
		return nil, err
	}
	if cfg.MaxTokens <= 0 {
		// The API requires one; its one default is the schema's.
		return nil, fmt.Errorf("%s: max_tokens is %d: it must be positive (schema.Load fills the schema's default)", provider, cfg.MaxTokens)
	}
	policy, err := call.PolicyFor(provider, m, cfg.Endpoint)
	if err != nil {
		return nil, err
	}
	if base == "" {
		base = BaseURL
	}
	var header func(http.Header)
	token := key
	if key == "" {
		// A proxy at base_url without a key: langchaingo refuses an empty
		// token (and would read ANTHROPIC_API_KEY), so send none at all.
		token = "unused"
		header = func(h http.Header) { h.Del("X-Api-Key") }
	}
	llm, err := lcanthropic.New(
		lcanthropic.WithToken(token),
		lcanthropic.WithModel(cfg.Name),
		lcanthropic.WithBaseURL(strings.TrimSuffix(base, "/")),
		lcanthropic.WithHTTPClient(call.New(policy, o, header)),
	)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", provider, err)
	}
	return &Model{name: cfg.Name, temperature: temperature, omitTemperature: cfg.Wire.Temperature == "omit", maxTokens: cfg.MaxTokens, llm: llm}, nil
}

// placeholder is the message langchaingo converts; the request rewrite
// replaces it with the rendered messages.
func placeholder() []llms.MessageContent {
	return []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, "-")}
}

// Generate makes one Messages API call (never streamed).
func (m *Model) Generate(ctx context.Context, req model.Request) (model.Response, error) {
	names, err := model.ToolNamesOf(req.Tools)
	if err != nil {
		return model.Response{}, fmt.Errorf("anthropic: %w", err)
	}
	r, err := render(req.Messages, names)
	if err != nil {
		return model.Response{}, fmt.Errorf("anthropic: %w", err)
	}
	r.omitTemperature = m.omitTemperature
	opts := []llms.CallOption{
		llms.WithModel(m.name),
		llms.WithTemperature(m.temperature),
		llms.WithMaxTokens(m.maxTokens),
	}
	if len(req.Tools) > 0 {
		tools, err := call.Tools(req.Tools, names)
		if err != nil {
			return model.Response{}, fmt.Errorf("anthropic: %w", err)
		}
		opts = append(opts, llms.WithTools(tools))
	}
	rb := &responseBlocks{inputs: map[string]string{}}
	tr := &call.Trace{RewriteRequest: r.rewriteRequest, RewriteResponse: rb.rewriteResponse}
	resp, err := m.llm.GenerateContent(call.WithTrace(ctx, tr), placeholder(), opts...)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return model.Response{}, fmt.Errorf("anthropic: %w", ctx.Err())
		case tr.Err != nil:
			if tr.Err.Hint == "" {
				tr.Err.Hint = paramHint(tr.Err.Param, req.Tools)
			}
			return model.Response{}, tr.Err
		case errors.Is(err, lcanthropic.ErrEmptyResponse):
			return model.Response{}, errors.New("anthropic: the response has no content")
		}
		return model.Response{}, fmt.Errorf("anthropic: %w", err)
	}
	out := decode(resp, rb.inputs)
	names.FromWire(out.ToolCalls)
	if len(out.ToolCalls) == 0 && len(resp.Choices) > 0 && resp.Choices[0].StopReason == "max_tokens" {
		// A decision cut off at max_tokens is not a final answer.
		return model.Response{}, fmt.Errorf("anthropic: the answer was cut off at max_tokens (%d) before it finished; raise model.max_tokens", m.maxTokens)
	}
	return out, nil
}

// decode joins the choices langchaingo makes of the content blocks (one per
// block): text blocks into Text, tool_use blocks into ToolCalls with the
// input as sent, thinking blocks into Reasoning.
func decode(resp *llms.ContentResponse, inputs map[string]string) model.Response {
	var out model.Response
	var text, reasoning []string
	for i, c := range resp.Choices {
		if c == nil {
			continue
		}
		info := c.GenerationInfo
		if i == 0 {
			cacheRead := intInfo(info, "CacheReadInputTokens")
			out.Usage = model.Usage{
				// input_tokens counts only what follows the last cache
				// breakpoint; the prompt is all three.
				InputTokens:       intInfo(info, "InputTokens") + cacheRead + intInfo(info, "CacheCreationInputTokens"),
				CachedInputTokens: cacheRead,
				OutputTokens:      intInfo(info, "OutputTokens"),
			}
		}
		if _, thinking := info["ThinkingSignature"]; thinking {
			if s, _ := info["ThinkingContent"].(string); s != "" {
				reasoning = append(reasoning, s)
			}
			continue
		}
		if c.Content != "" {
			text = append(text, c.Content)
		}
		for _, tc := range c.ToolCalls {
			if tc.FunctionCall == nil {
				continue
			}
			args, ok := inputs[tc.ID]
			if !ok {
				args = tc.FunctionCall.Arguments
			}
			out.ToolCalls = append(out.ToolCalls, model.ToolCall{ID: tc.ID, Name: tc.FunctionCall.Name, Arguments: model.ArgumentsFromText(args)})
		}
	}
	out.Text = strings.Join(text, "")
	out.Reasoning = strings.Join(reasoning, "\n")
	return out
}

func intInfo(info map[string]any, k string) int {
	if v, ok := info[k].(int); ok {
		return v
	}
	return 0
}

// Provider is the "anthropic" model provider (the Messages API).
func Provider() engine.ProviderKind { return ProviderWith(call.Options{}) }

// ProviderWith is Provider whose models' HTTP clients take o (an injected
// client, sleep and jitter).
func ProviderWith(o call.Options) engine.ProviderKind {
	return engine.TypedProvider("anthropic", "Anthropic's Messages API", configCUE, validate,
		func(m schema.Model, cfg Config, _ string) (model.Model, error) {
			built, err := NewWithOptions(m, cfg, o)
			if err != nil {
				return nil, err // not a typed nil inside the interface
			}
			return built, nil
		})
}

// validate checks what New would refuse, at the spec's positions; the
// temperature's range and the wire's one field are the schema's.
func validate(c *schema.Check, m schema.Model, cfg Config) {
	if cfg.Name == "" {
		c.ErrorfAtKey(".provider", "provider %q needs name: the model id (e.g. claude-sonnet-4-5)", m.Provider)
	}
	if cfg.BaseURL == "" && cfg.APIKeyEnv == "" {
		c.ErrorfAtKey(".provider", "provider %q needs api_key_env: the name of the environment variable holding the key", m.Provider)
	}
}

// paramHint names the tool a rejected field is in ("tools.3.custom.name").
func paramHint(param string, defs []model.ToolDef) string {
	i, ok := call.ParamTool(param)
	if !ok || i >= len(defs) {
		return ""
	}
	name := defs[i].Name
	if w := model.WireToolName(name); w != name {
		return fmt.Sprintf("the field is in the tool %q (sent as %q)", name, w)
	}
	return fmt.Sprintf("the field is in the tool %q", name)
}
