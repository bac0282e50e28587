package openai

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/model/call"
	"github.com/thea-harness/thea/schema"
)

// fake is a chat-completions server: it records every request and answers
// each with the next reply (the last one repeats).
type fake struct {
	t       *testing.T
	srv     *httptest.Server
	mu      sync.Mutex
	reqs    []seen
	replies []http.HandlerFunc
}

type seen struct {
	Path   string
	Host   string
	Header http.Header
	Body   []byte
}

func newFake(t *testing.T, replies ...http.HandlerFunc) *fake {
	f := &fake{t: t, replies: replies}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fake) serve(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		f.t.Errorf("reading request: %v", err)
	}
	f.mu.Lock()
	f.reqs = append(f.reqs, seen{Path: r.URL.Path, Host: r.Host, Header: r.Header.Clone(), Body: b})
	n := len(f.reqs)
	f.mu.Unlock()
	f.replies[min(n, len(f.replies))-1](w, r)
}

func (f *fake) requests() []seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seen(nil), f.reqs...)
}

// redirect sends every request to the fake whatever its URL, so default
// base URLs (api.openai.com, Gemini, Ollama) are exercised offline.
func (f *fake) redirect() *http.Client {
	u, _ := url.Parse(f.srv.URL)
	return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.URL.Scheme, r.URL.Host = u.Scheme, u.Host
		return http.DefaultTransport.RoundTrip(r)
	})}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func reply(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// recordSleep is an injected sleep that records each delay and returns at
// once.
type recordSleep struct {
	mu  sync.Mutex
	got []time.Duration
}

func (s *recordSleep) sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.got = append(s.got, d)
	s.mu.Unlock()
	return ctx.Err()
}

func testOptions(s *recordSleep) call.Options {
	return call.Options{Sleep: s.sleep, Jitter: call.SeededJitter(1)}
}

// testConfig is an OpenAI-compatible server at the fake, keyed by
// THEA_TEST_KEY.
func testConfig(t *testing.T, f *fake) schema.Model {
	t.Setenv("THEA_TEST_KEY", "sk-test-secret")
	return schema.Model{
		Provider: "openai", Name: "gpt-test", BaseURL: f.srv.URL + "/v1", APIKeyEnv: "THEA_TEST_KEY",
		Temperature: 0.2, MaxTokens: 256, Timeout: schema.Duration(5 * time.Second), Retries: 2,
	}
}

// equalJSON fails unless got and want are the same JSON value.
func equalJSON(t *testing.T, got []byte, want string) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad expectation: %v", err)
	}
	if !reflect.DeepEqual(g, w) {
		gb, _ := json.MarshalIndent(g, "", "  ")
		wb, _ := json.MarshalIndent(w, "", "  ")
		t.Fatalf("request body\n%s\nwant\n%s", gb, wb)
	}
}

func field(t *testing.T, body []byte, key string) any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("request body is not JSON: %v", err)
	}
	return m[key]
}
