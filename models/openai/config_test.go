package openai

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model/call"
	"github.com/thea-harness/thea/models/internal/wiretest"
	"github.com/thea-harness/thea/schema"
)

// Each provider's defaults: base URL, key rules and the max-tokens field.
func TestProviderDefaults(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(200, toolCallReply))
	t.Setenv("THEA_TEST_KEY", "k1")
	t.Setenv("THEA_EMPTY", "")
	for _, tc := range []struct {
		cfg              section
		host, path, auth string
		maxField         string
	}{
		{section{Model: schema.Model{Provider: "openai", Timeout: schema.Duration(time.Minute)}, Config: Config{Endpoint: call.Endpoint{Name: "gpt-4o", APIKeyEnv: "THEA_TEST_KEY", MaxTokens: 9}}}, "api.openai.com", "/v1/chat/completions", "Bearer k1", "max_completion_tokens"},
		{section{Model: schema.Model{Provider: "ollama", Timeout: schema.Duration(time.Minute)}, Config: Config{Endpoint: call.Endpoint{Name: "qwen2.5vl", MaxTokens: 9}}}, "localhost:11434", "/v1/chat/completions", "", "max_tokens"},
		{section{Model: schema.Model{Provider: "ollama", Timeout: schema.Duration(time.Minute)}, Config: Config{Endpoint: call.Endpoint{Name: "qwen2.5vl", APIKeyEnv: "THEA_EMPTY", MaxTokens: 9}}}, "localhost:11434", "/v1/chat/completions", "", "max_tokens"},
		{section{Model: schema.Model{Provider: "google", Timeout: schema.Duration(time.Minute)}, Config: Config{Endpoint: call.Endpoint{Name: "gemini-2.5-flash", APIKeyEnv: "THEA_TEST_KEY", MaxTokens: 9}}}, "generativelanguage.googleapis.com", "/v1beta/openai/chat/completions", "Bearer k1", "max_tokens"},
	} {
		m, err := build(tc.cfg, call.Options{HTTP: f.Redirect()})
		if err != nil {
			t.Fatalf("%s: %v", tc.cfg.Provider, err)
		}
		if _, err := m.Generate(t.Context(), firstRequest()); err != nil {
			t.Fatalf("%s: %v", tc.cfg.Provider, err)
		}
		reqs := f.Requests()
		r := reqs[len(reqs)-1]
		if r.Host != tc.host || r.Path != tc.path || r.Header.Get("Authorization") != tc.auth || wiretest.Field(t, r.Body, tc.maxField) != 9.0 {
			t.Fatalf("%s: host %s path %s auth %q body %s", tc.cfg.Provider, r.Host, r.Path, r.Header.Get("Authorization"), r.Body)
		}
	}
}

func TestConstructionErrors(t *testing.T) {
	t.Setenv("THEA_EMPTY", "")
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	for _, tc := range []struct {
		cfg  section
		want string
	}{
		{section{Model: schema.Model{Provider: "openai"}, Config: Config{Endpoint: call.Endpoint{Name: "gpt-4o"}}}, "openai: model.api_key_env is required"},
		{section{Model: schema.Model{Provider: "openai"}, Config: Config{Endpoint: call.Endpoint{Name: "gpt-4o", APIKeyEnv: "THEA_EMPTY"}}}, "openai: model.api_key_env names THEA_EMPTY, but that environment variable is empty or unset"},
		{section{Model: schema.Model{Provider: "google"}, Config: Config{Endpoint: call.Endpoint{Name: "gemini-2.5-flash"}}}, "google: model.api_key_env is required"},
		{section{Model: schema.Model{Provider: "openai"}, Config: Config{Endpoint: call.Endpoint{APIKeyEnv: "OPENAI_API_KEY"}}}, "openai: model.name is required"},
		{section{Model: schema.Model{Provider: "anthropic"}, Config: Config{Endpoint: call.Endpoint{Name: "x"}}}, `provider "anthropic" is not served here`},
	} {
		m, err := New(tc.cfg.Model, tc.cfg.Config)
		if err == nil || !strings.Contains(err.Error(), tc.want) || m != nil {
			t.Errorf("%+v: model %v, err %v, want %q", tc.cfg, m, err, tc.want)
		}
	}
}

// One model serves concurrent calls (the evaluator shares the loop's model).
func TestConcurrentCalls(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(200, toolCallReply))
	m, err := build(testConfig(t, f), wiretest.Options(&wiretest.Sleeps{}))
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			resp, err := m.Generate(t.Context(), firstRequest())
			if err == nil && len(resp.ToolCalls) != 1 {
				err = errors.New("no tool call")
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range f.Requests() {
		if string(r.Body) != string(f.Requests()[0].Body) {
			t.Fatal("concurrent calls sent different bodies for the same request")
		}
	}
}

func TestComponents(t *testing.T) {
	c := engine.NewComponents()
	if err := c.Add(Components()...); err != nil {
		t.Fatal(err)
	}
	if _, err := c.NewModel(section{Model: schema.Model{Provider: "ollama", Timeout: schema.Duration(time.Minute)}, Config: Config{Endpoint: call.Endpoint{Name: "qwen2.5vl", MaxTokens: 64}}}.spec(), ""); err != nil {
		t.Fatal(err)
	}
	if err := c.Add(Components()...); err == nil {
		t.Fatal("registering twice was not an error")
	}
}

// Reasoning models get no temperature (they accept only their default),
// including those langchaingo does not know.
func TestReasoningModelsGetNoTemperature(t *testing.T) {
	f := wiretest.New(t, wiretest.Reply(200, toolCallReply))
	for name, want := range map[string]bool{"o4-mini": false, "o1": false, "openai/o3": false, "gpt-5-mini": false, "gpt-4o": true, "ollama-7b": true} {
		cfg := testConfig(t, f)
		cfg.Name = name
		m, err := build(cfg, wiretest.Options(&wiretest.Sleeps{}))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Generate(t.Context(), firstRequest()); err != nil {
			t.Fatal(err)
		}
		reqs := f.Requests()
		body := reqs[len(reqs)-1].Body
		if got := wiretest.Field(t, body, "temperature") != nil; got != want {
			t.Errorf("%s: temperature sent %v, want %v", name, got, want)
		}
		if !strings.Contains(string(body), pngURL) {
			t.Errorf("%s: the image is missing", name)
		}
	}
}
