package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/tmc/langchaingo/llms"
	lcopenai "github.com/tmc/langchaingo/llms/openai"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/model/call"
	"github.com/thea-harness/thea/schema"
)

// Model is a chat-completions model. It is safe for concurrent use.
type Model struct {
	provider string
	name     string
	shape    shape
	// maxTokens is sent in shape.tokenLimitField (0: none).
	maxTokens int
	llm       *lcopenai.LLM
}

var _ model.Model = (*Model)(nil)

// New builds the model a spec's model section describes: m.Provider is
// "openai", "ollama" or "google", cfg its own fields.
func New(m schema.Model, cfg Config) (model.Model, error) {
	built, err := NewWithOptions(m, cfg, call.Options{})
	if err != nil {
		return nil, err // not a typed nil inside the interface
	}
	return built, nil
}

// NewWithOptions is New with an injected HTTP client, sleep and jitter.
func NewWithOptions(m schema.Model, cfg Config, o call.Options) (*Model, error) {
	p, err := providerNamed(m.Provider)
	if err != nil {
		return nil, err
	}
	return p.build(m, cfg, o)
}

// build makes the model for provider p.
func (p provider) build(m schema.Model, cfg Config, o call.Options) (*Model, error) {
	if cfg.Name == "" {
		return nil, fmt.Errorf("%s: model.name is required (the model id the server knows, e.g. gpt-4o)", p.name)
	}
	if cfg.Temperature != nil && *cfg.Temperature < 0 {
		return nil, fmt.Errorf("%s: temperature must not be negative", p.name)
	}
	sh, err := decideShape(p, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	key, err := call.APIKey(p.name, cfg.Endpoint, p.keyRequired(cfg), p.keyless)
	if err != nil {
		return nil, err
	}
	if cfg.MaxTokens <= 0 {
		return nil, fmt.Errorf("%s: max_tokens is %d: it must be positive (schema.Load fills the schema's default)", p.name, cfg.MaxTokens)
	}
	var header func(http.Header)
	token := key
	if key == "" {
		// langchaingo refuses an empty token (and would then read
		// OPENAI_API_KEY); a keyless server gets no Authorization header.
		token = "unused"
		header = func(h http.Header) { h.Del("Authorization") }
	}
	base := cfg.BaseURL
	if base == "" {
		base = p.baseURL
	}
	policy, err := call.PolicyFor(p.name, m, cfg.Endpoint)
	if err != nil {
		return nil, err
	}
	client := call.New(policy, o, header)
	llm, err := lcopenai.New(
		lcopenai.WithToken(token),
		lcopenai.WithModel(cfg.Name),
		lcopenai.WithBaseURL(strings.TrimSuffix(base, "/")),
		lcopenai.WithOrganization(""),
		lcopenai.WithAPIType(lcopenai.APITypeOpenAI),
		lcopenai.WithHTTPClient(client),
	)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	return &Model{provider: p.name, name: cfg.Name, shape: sh, maxTokens: cfg.MaxTokens, llm: llm}, nil
}

// Generate makes one chat-completions call (never streamed).
func (m *Model) Generate(ctx context.Context, req model.Request) (model.Response, error) {
	names, err := model.ToolNamesOf(req.Tools)
	if err != nil {
		return model.Response{}, fmt.Errorf("%s: %w", m.provider, err)
	}
	rd := newRenderer(names)
	msgs, err := rd.renderMessages(req.Messages)
	if err != nil {
		return model.Response{}, fmt.Errorf("%s: %w", m.provider, err)
	}
	opts, err := m.callOptions(req.Tools, names)
	if err != nil {
		return model.Response{}, fmt.Errorf("%s: %w", m.provider, err)
	}
	rb := &responseBody{}
	tr := &call.Trace{RewriteResponse: rb.rewrite}
	if rd.inline.Len() > 0 || len(rd.extras) > 0 || !m.shape.sendTemperature || m.shape.forceTemperature {
		tr.RewriteRequest = func(body []byte) ([]byte, error) { return rd.rewriteRequest(body, m.shape) }
	}
	resp, err := m.llm.GenerateContent(call.WithTrace(ctx, tr), msgs, opts...)
	if err != nil {
		return model.Response{}, m.fail(ctx, tr, err, req.Tools)
	}
	out, err := decode(resp, rb.extras)
	if err != nil {
		return model.Response{}, fmt.Errorf("%s: %w", m.provider, err)
	}
	names.FromWire(out.ToolCalls)
	if len(out.ToolCalls) == 0 && resp.Choices[0].StopReason == "length" {
		// A decision cut off at max_tokens (thinking models spend it on
		// reasoning) is not a final answer.
		return model.Response{}, fmt.Errorf("%s: the answer was cut off at max_tokens (%d) before it finished; raise model.max_tokens", m.provider, m.maxTokens)
	}
	return out, nil
}

func (m *Model) callOptions(defs []model.ToolDef, names model.ToolNames) ([]llms.CallOption, error) {
	opts := []llms.CallOption{
		llms.WithModel(m.name),
		llms.WithTemperature(m.shape.temperature),
		llms.WithMaxTokens(m.maxTokens),
	}
	if m.shape.tokenLimitField == fieldMaxTokens {
		opts = append(opts, llms.WithMetadata(map[string]any{"openai:use_legacy_max_tokens": true}))
	}
	if len(defs) > 0 {
		tools, err := call.Tools(defs, names)
		if err != nil {
			return nil, err
		}
		opts = append(opts, llms.WithTools(tools))
	}
	return opts, nil
}

// fail turns a failed call into the engine's error: the caller's own
// cancellation as it is, the HTTP failure with status, message and what to
// fix, or langchaingo's error.
func (m *Model) fail(ctx context.Context, tr *call.Trace, err error, defs []model.ToolDef) error {
	if ctx.Err() != nil {
		return fmt.Errorf("%s: %w", m.provider, ctx.Err())
	}
	if tr.Err != nil {
		if tr.Err.Hint == "" {
			tr.Err.Hint = m.paramHint(tr.Err.Param, defs)
		}
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

func decode(resp *llms.ContentResponse, extras []json.RawMessage) (model.Response, error) {
	if resp == nil || len(resp.Choices) == 0 {
		return model.Response{}, errors.New("the server answered with no choices")
	}
	c := resp.Choices[0]
	out := model.Response{Text: c.Content, Reasoning: c.ReasoningContent}
	for i, tc := range c.ToolCalls {
		if tc.FunctionCall == nil {
			continue
		}
		call := model.ToolCall{ID: tc.ID, Name: tc.FunctionCall.Name, Arguments: model.ArgumentsFromText(tc.FunctionCall.Arguments)}
		if i < len(extras) {
			call.Extra = extras[i]
		}
		out.ToolCalls = append(out.ToolCalls, call)
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
