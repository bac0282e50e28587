package wiretest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/model/call"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/world"
)

// Server records every request and answers each with the next reply (the
// last one repeats).
type Server struct {
	t       *testing.T
	URL     string
	srv     *httptest.Server
	mu      sync.Mutex
	reqs    []Request
	replies []http.HandlerFunc
}

// Request is one request the server saw.
type Request struct {
	Path   string
	Host   string
	Header http.Header
	Body   []byte
}

// New starts a server for the test; it stops when the test ends.
func New(t *testing.T, replies ...http.HandlerFunc) *Server {
	f := &Server{t: t, replies: replies}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	f.URL = f.srv.URL
	t.Cleanup(f.srv.Close)
	return f
}

func (f *Server) serve(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	if err != nil {
		f.t.Errorf("reading request: %v", err)
	}
	r.Body = io.NopCloser(bytes.NewReader(b)) // a strict reply reads it again
	f.mu.Lock()
	f.reqs = append(f.reqs, Request{Path: r.URL.Path, Host: r.Host, Header: r.Header.Clone(), Body: b})
	n := len(f.reqs)
	f.mu.Unlock()
	f.replies[min(n, len(f.replies))-1](w, r)
}

// Requests are the requests seen so far.
func (f *Server) Requests() []Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Request(nil), f.reqs...)
}

// Redirect sends every request to the fake whatever its URL, so default
// base URLs (api.openai.com, Gemini, Ollama) are exercised offline.
func (f *Server) Redirect() *http.Client {
	u, _ := url.Parse(f.srv.URL)
	return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.URL.Scheme, r.URL.Host = u.Scheme, u.Host
		return http.DefaultTransport.RoundTrip(r)
	})}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Reply answers with a status and a JSON body.
func Reply(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// Sleeps is an injected sleep that records each delay and returns at
// once.
type Sleeps struct {
	mu  sync.Mutex
	got []time.Duration
}

// Sleep records d and returns at once.
func (s *Sleeps) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.got = append(s.got, d)
	s.mu.Unlock()
	return ctx.Err()
}

// Options inject s and a seeded jitter.
func Options(s *Sleeps) call.Options {
	return call.Options{Sleep: s.Sleep, Jitter: call.SeededJitter(1)}
}

// EqualJSON fails unless got and want are the same JSON value.
func EqualJSON(t *testing.T, got []byte, want string) {
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

// Field is one top-level field of a JSON body.
func Field(t *testing.T, body []byte, key string) any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("request body is not JSON: %v", err)
	}
	return m[key]
}

// Got is the delays slept so far.
func (s *Sleeps) Got() []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]time.Duration(nil), s.got...)
}

// Hang holds each request until the client goes away, reporting its arrival
// and the cancel it saw.
func Hang(arrived, cancelled chan<- struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		select {
		case <-r.Context().Done():
			cancelled <- struct{}{}
		case <-time.After(10 * time.Second):
		}
	}
}

// WaitCancelled fails unless n requests reach the server and it reports
// each cancelled; the bound only keeps a broken test from hanging.
func WaitCancelled(t *testing.T, arrived, cancelled <-chan struct{}, n int) {
	t.Helper()
	bound := time.After(testtime.Scale(5 * time.Second))
	for i := range n {
		if arrived != nil {
			select {
			case <-arrived:
			case <-bound:
				t.Fatalf("request %d never reached the server", i+1)
			}
		}
		select {
		case <-cancelled:
		case <-bound:
			t.Fatalf("request %d: the server never saw it cancelled", i+1)
		}
	}
}

// Canned is an HTTP client that answers every request with status 200 and
// body, without a network: the benchmarks' adapter-only cost.
func Canned(body string) *http.Client {
	return &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if r.Body != nil {
			if _, err := io.Copy(io.Discard, r.Body); err != nil {
				return nil, err
			}
			_ = r.Body.Close()
		}
		return &http.Response{StatusCode: 200, Status: "200 OK", Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)), Request: r}, nil
	})}
}

// TurnRequest is a mid-task decide request of realistic size: a 4 KB
// resident prompt, 12 tools, 10 past turns (assistant call + tool result)
// and the refreshed observation with one camera image of imageBytes (none
// when 0).
func TurnRequest(imageBytes int) model.Request {
	img := make([]byte, imageBytes)
	for i := range img {
		img[i] = byte(i * 7)
	}
	copy(img, "\x89PNG\r\n\x1a\n")
	req := model.Request{Purpose: model.PurposeDecide}
	req.Messages = append(req.Messages, model.Message{Role: model.RoleSystem, CacheBreakpoint: true,
		Parts: []model.Part{{Text: strings.Repeat("You drive a household robot. Follow the rules. ", 85)}}})
	for i := range 12 {
		req.Tools = append(req.Tools, model.ToolDef{Name: fmt.Sprintf("tool_%d", i), Description: strings.Repeat("Does one thing well. ", 6),
			InputSchema: json.RawMessage(`{"type":"object","properties":{"target":{"type":"string","description":"what to act on"},"speed":{"type":"number","minimum":0,"maximum":1}},"required":["target"]}`)})
	}
	req.Messages = append(req.Messages, model.Message{Role: model.RoleUser, Parts: []model.Part{{Text: "Instruction: put the cup in the sink."}}})
	for i := range 10 {
		id := fmt.Sprintf("call_%d", i)
		req.Messages = append(req.Messages,
			model.Message{Role: model.RoleAssistant, Parts: []model.Part{{Text: "Next I move closer."}},
				ToolCalls: []model.ToolCall{{ID: id, Name: "tool_1", Arguments: json.RawMessage(`{"target":"cup","speed":0.5}`)}}},
			model.Message{Role: model.RoleTool, ToolCallID: id, Name: "tool_1",
				Parts: []model.Part{{Text: `{"ok":true,"result":{"distance_m":1.25,"note":"` + strings.Repeat("x", 300) + `"}}`}}})
	}
	req.Messages[len(req.Messages)-1].CacheBreakpoint = true
	obs := model.Message{Role: model.RoleUser, Parts: []model.Part{{Text: "Observation: " + strings.Repeat("clearance front 0.8 m; ", 20)}}}
	if imageBytes > 0 {
		obs.Parts = append(obs.Parts, model.Part{Image: &world.Image{Camera: "front", MIME: "image/png", Width: 640, Height: 480, Data: img}})
	}
	req.Messages = append(req.Messages, obs)
	return req
}
