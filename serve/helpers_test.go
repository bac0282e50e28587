package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// specYAML is a body with builtin tools (extra may add a toolset by
// continuing the toolsets map, then further top-level keys): query_user parks a task
// deterministically until the test answers, stops or shuts down.
const specYAML = `name: kiosk
model: {provider: script, script: turns.yaml}
embodiment:
  name: kiosk
  cameras: []
  frames: []
  limits: {min_clearance_m: 0.3, safety_margin_m: 0.1}
loop: {stages: [task_notes, compact]}
user: {channel: none}
run_log: {enabled: false}
toolsets:
  core: {kind: builtin}
`

// closeCounter records that the server closed the session.
type closeCounter struct {
	*engine.Harness
	closed atomic.Int32
}

func (c *closeCounter) Close() error {
	c.closed.Add(1)
	return c.Harness.Close()
}

// fixture is a real session behind a real listener.
type fixture struct {
	t      *testing.T
	base   string
	token  string
	sess   *closeCounter
	srv    *Server
	cancel context.CancelFunc
	served chan error
}

// start serves a session built from specYAML (+ extra) and the scripted
// model turns, on 127.0.0.1 with an OS-chosen port.
func start(t *testing.T, extra, turns string, cfg Config) *fixture {
	t.Helper()
	return startSpec(t, specYAML+extra, turns, cfg)
}

// startSpec serves a session built from a whole spec.
func startSpec(t *testing.T, spec, turns string, cfg Config) *fixture {
	t.Helper()
	opts := sessionOptions(t)
	srv, h := newSession(t, loadSpec(t, spec, turns, opts), opts, cfg)
	return serveSession(t, srv, h, cfg)
}

// sessionOptions is this build's session wiring, with no stdin and stderr
// discarded.
func sessionOptions(t *testing.T) engine.Options {
	t.Helper()
	opts, err := components.Session(components.Options{Stdin: strings.NewReader(""), Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	return opts
}

// loadSpec writes spec and the script's turns into a new directory and
// loads the spec over the components of opts.
func loadSpec(t *testing.T, spec, turns string, opts engine.Options) *schema.Spec {
	t.Helper()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "spec.yaml"), spec)
	write(t, filepath.Join(dir, "turns.yaml"), turns)
	loaded, diags := schema.Load([]string{filepath.Join(dir, "spec.yaml")}, schema.LoadOptions{Descriptors: opts.Components.Descriptors()})
	if loaded == nil {
		t.Fatalf("spec: %v", diags)
	}
	return loaded
}

// newSession builds the server of cfg and the session of loaded whose user
// channel it is.
func newSession(t *testing.T, loaded *schema.Spec, opts engine.Options, cfg Config) (*Server, *engine.Harness) {
	t.Helper()
	srv := New(cfg)
	opts.User = srv.User()
	h, err := engine.New(t.Context(), loaded, opts)
	if err != nil {
		t.Fatal(err)
	}
	return srv, h
}

// serveSession serves h on 127.0.0.1 with an OS-chosen port until the test
// ends.
func serveSession(t *testing.T, srv *Server, h *engine.Harness, cfg Config) *fixture {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	f := &fixture{t: t, base: "http://" + ln.Addr().String(), token: cfg.Token, sess: &closeCounter{Harness: h},
		srv: srv, cancel: cancel, served: make(chan error, 1)}
	go func() { f.served <- srv.Serve(ctx, ln, f.sess) }()
	t.Cleanup(func() {
		cancel()
		if err := <-f.served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return f
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}

// do sends a request and decodes a JSON answer into out (when non-nil).
func (f *fixture) do(method, path string, body any, out any) int {
	f.t.Helper()
	var raw []byte
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			f.t.Fatal(err)
		}
		raw = b
	}
	code, b := f.raw(method, path, raw)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			f.t.Fatalf("%s %s: %d, body not JSON: %v\n%s", method, path, code, err, b)
		}
	}
	return code
}

// raw sends a request with body as given (none when nil) and returns the
// status and the answer's body.
func (f *fixture) raw(method, path string, body []byte) (int, []byte) {
	f.t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(f.t.Context(), method, f.base+path, rd)
	if err != nil {
		f.t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	if f.token != "" {
		req.Header.Set("Authorization", "Bearer "+f.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	return resp.StatusCode, b
}

// addr is the server's host:port.
func (f *fixture) addr() string { return strings.TrimPrefix(f.base, "http://") }

// submit starts a task and returns its id.
func (f *fixture) submit(instruction string) int {
	f.t.Helper()
	var sub Submitted
	if code := f.do("POST", "/v1/tasks", map[string]string{"instruction": instruction}, &sub); code != http.StatusAccepted {
		f.t.Fatalf("submit %q: status %d", instruction, code)
	}
	return sub.ID
}

// sseMsg is one Server-Sent Event as a client reads it.
type sseMsg struct {
	id, event string
	data      []byte
}

// stream is an open SSE connection.
type stream struct {
	t    *testing.T
	body io.ReadCloser
	sc   *bufio.Scanner
}

func (f *fixture) events(id int, lastEventID string) *stream {
	f.t.Helper()
	req, err := http.NewRequestWithContext(f.t.Context(), "GET", f.base+"/v1/tasks/"+itoa(id)+"/events", nil)
	if err != nil {
		f.t.Fatal(err)
	}
	if f.token != "" {
		req.Header.Set("Authorization", "Bearer "+f.token)
	}
	if lastEventID != "" {
		req.Header.Set("Last-Event-ID", lastEventID)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		f.t.Fatalf("events: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	s := &stream{t: f.t, body: resp.Body, sc: bufio.NewScanner(resp.Body)}
	s.sc.Buffer(nil, 1<<20)
	f.t.Cleanup(func() { resp.Body.Close() })
	return s
}

// next reads one event; io.EOF when the server ended the stream.
func (s *stream) next() (sseMsg, error) {
	var m sseMsg
	for s.sc.Scan() {
		line := s.sc.Text()
		switch {
		case line == "":
			if m.event != "" {
				return m, nil
			}
		case strings.HasPrefix(line, ":"): // comment (keep-alive)
		case strings.HasPrefix(line, "retry: "): // reconnection delay
		case strings.HasPrefix(line, "id: "):
			m.id = line[4:]
		case strings.HasPrefix(line, "event: "):
			m.event = line[7:]
		case strings.HasPrefix(line, "data: "):
			m.data = append(m.data, line[6:]...)
		default:
			return m, errors.New("unexpected SSE line: " + line)
		}
	}
	if err := s.sc.Err(); err != nil {
		return m, err
	}
	return m, io.EOF
}

// until reads events up to and including the first of the given kind,
// returning every event read.
func (s *stream) until(kind string) []sseMsg {
	s.t.Helper()
	var got []sseMsg
	for {
		m, err := s.next()
		if err != nil {
			s.t.Fatalf("stream ended before a %q event (%v); read %s", kind, err, names(got))
		}
		got = append(got, m)
		if m.event == kind {
			return got
		}
	}
}

// rest reads to the end of the stream, which must follow done.
func (s *stream) rest() []sseMsg {
	s.t.Helper()
	got := s.until("done")
	if m, err := s.next(); err != io.EOF {
		s.t.Fatalf("after done: %+v, %v (want the end of the stream)", m, err)
	}
	return got
}

func names(ms []sseMsg) string {
	var b strings.Builder
	for _, m := range ms {
		b.WriteString(m.event + " ")
	}
	return b.String()
}

func itoa(n int) string { return strconv.Itoa(n) }

func decodeAs[T any](t *testing.T, m sseMsg) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(m.data, &v); err != nil {
		t.Fatalf("%s event: %v\n%s", m.event, err, m.data)
	}
	return v
}
