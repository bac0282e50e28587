package openai

import (
	"errors"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/model/call"
	"github.com/thea-harness/thea/models/internal/wiretest"
	"github.com/thea-harness/thea/schema"
)

// A reasoning model is recognised by its name wherever it is served: behind
// a base_url (Azure, a router, a proxy) it gets max_completion_tokens and no
// temperature, and a strict server (OpenAI's rules) accepts the request.
// Before the family table, a base_url meant max_tokens: HTTP 400.
func TestReasoningModelBehindAProxy(t *testing.T) {
	f := wiretest.New(t, wiretest.StrictOpenAI(wiretest.OpenAIRules{}, wiretest.Reply(200, toolCallReply)))
	for _, name := range []string{"gpt-5", "gpt-5-mini", "o4-mini", "o1", "o3-pro", "openai/o4-mini", "ft:o4-mini-2025-04-16:acme::x1"} {
		cfg := testConfig(t, f) // base_url: the proxy
		cfg.Name = name
		m, err := NewWithOptions(cfg, wiretest.Options(&wiretest.Sleeps{}))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Generate(t.Context(), firstRequest()); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		reqs := f.Requests()
		body := reqs[len(reqs)-1].Body
		if wiretest.Field(t, body, "max_completion_tokens") != 256.0 || wiretest.Field(t, body, "temperature") != nil {
			t.Fatalf("%s: body %s", name, body)
		}
	}
	// A standard model behind the proxy keeps max_tokens and its temperature.
	m, err := NewWithOptions(testConfig(t, f), wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Generate(t.Context(), firstRequest()); err != nil {
		t.Fatal(err)
	}
	reqs := f.Requests()
	if body := reqs[len(reqs)-1].Body; wiretest.Field(t, body, "max_tokens") != 256.0 || wiretest.Field(t, body, "temperature") != 0.2 {
		t.Fatalf("gpt-test: body %s", body)
	}
}

// A deployment name the table cannot know ("prod-chat" serving a reasoning
// model): the strict server refuses max_tokens and the error names the field
// and what to set; model.wire.family (or the two fields) makes it pass.
func TestWireOverrideForAnUnknownName(t *testing.T) {
	reasoning := wiretest.OpenAIRules{Reasoning: func(string) bool { return true }}
	f := wiretest.New(t, wiretest.StrictOpenAI(reasoning, wiretest.Reply(200, toolCallReply)))
	cfg := testConfig(t, f)
	cfg.Name = "prod-chat"
	m, err := NewWithOptions(cfg, wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Generate(t.Context(), firstRequest())
	var ce *call.Error
	if !errors.As(err, &ce) || ce.Status != 400 || ce.Param != "max_tokens" ||
		!strings.Contains(err.Error(), `— the server refuses max_tokens for "prod-chat" (family standard): set model.wire.token_limit_field: "max_completion_tokens"`) {
		t.Fatalf("err %v", err)
	}
	for _, w := range []schema.ModelWire{
		{Family: "openai_reasoning"},
		{TokenLimitField: "max_completion_tokens", Temperature: "omit"},
	} {
		cfg.Wire = w
		m, err := NewWithOptions(cfg, wiretest.Options(&wiretest.Sleeps{}))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Generate(t.Context(), firstRequest()); err != nil {
			t.Fatalf("%+v: %v", w, err)
		}
	}
	// With only the token field fixed, the temperature is next: named too.
	cfg.Wire = schema.ModelWire{TokenLimitField: "max_completion_tokens"}
	m, err = NewWithOptions(cfg, wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Generate(t.Context(), firstRequest())
	if err == nil || !strings.Contains(err.Error(), `the server refuses the temperature for "prod-chat" (family standard): set model.wire.temperature: "omit"`) {
		t.Fatalf("err %v", err)
	}
}

// wire.temperature "send" sends the spec's temperature even to a model the
// table (and langchaingo) would send none; a family's rule applies only
// when the spec says nothing.
func TestWireTemperatureSend(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(200, toolCallReply))
	cfg := testConfig(t, f)
	cfg.Name, cfg.Wire = "gpt-5-chat-latest", schema.ModelWire{Temperature: "send"}
	m, err := NewWithOptions(cfg, wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Generate(t.Context(), firstRequest()); err != nil {
		t.Fatal(err)
	}
	if got := wiretest.Field(t, f.Requests()[0].Body, "temperature"); got != 0.2 {
		t.Fatalf("temperature %v, want 0.2", got)
	}
}

// Gemini 3 gets temperature 1.0 when the spec sets none (Google's advice),
// the spec's own when it sets one; other models get 0 when none is set.
func TestGemini3Temperature(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(200, toolCallReply))
	for _, tc := range []struct {
		name string
		temp *float64
		want any
	}{
		{"gemini-3-pro-preview", nil, 1.0},
		{"models/gemini-3-flash-preview", nil, 1.0},
		{"gemini-3-pro-preview", new(0.4), 0.4},
		{"gemini-2.5-flash", nil, 0.0},
	} {
		cfg := testConfig(t, f)
		cfg.Provider, cfg.Name, cfg.Temperature = "google", tc.name, tc.temp
		m, err := NewWithOptions(cfg, wiretest.Options(&wiretest.Sleeps{}))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Generate(t.Context(), firstRequest()); err != nil {
			t.Fatal(err)
		}
		reqs := f.Requests()
		if got := wiretest.Field(t, reqs[len(reqs)-1].Body, "temperature"); got != tc.want {
			t.Errorf("%s (spec %v): temperature %v, want %v", tc.name, tc.temp, got, tc.want)
		}
	}
}

// Which family claims which name.
func TestFamilyTable(t *testing.T) {
	for name, want := range map[string]string{
		"o1": "openai_reasoning", "o1-mini": "openai_reasoning", "o3": "openai_reasoning", "o4-mini": "openai_reasoning",
		"gpt-5": "openai_reasoning", "GPT-5.1": "openai_reasoning", "openrouter/openai/o3-mini": "openai_reasoning",
		"gemini-3-pro-preview": "gemini_3", "google/gemini-3-flash": "gemini_3",
		"gpt-4o": "standard", "gpt-4.1-mini": "standard", "gemini-2.5-pro": "standard", "ollama": "standard", "o": "standard", "qwen2.5vl:7b": "standard",
	} {
		f, err := familyFor(schema.Model{Name: name})
		if err != nil || f.name != want {
			t.Errorf("%s: family %q (%v), want %q", name, f.name, err, want)
		}
	}
	if _, err := familyFor(schema.Model{Name: "x", Wire: schema.ModelWire{Family: "o-series"}}); err == nil ||
		!strings.Contains(err.Error(), `unknown family "o-series": this provider knows openai_reasoning, gemini_3, standard`) {
		t.Fatalf("err %v", err)
	}
}
