package cli_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/serve"
)

// loadConnsEnv overrides how many stalled connections the load test opens
// (default 3,000), for measuring beyond what CI runs.
const loadConnsEnv = "THEA_SERVE_LOAD_CONNS"

// loadBound is the `thea serve --max-conns` the load test runs with: a
// third of the stalled connections it opens, so the bound is exercised.
const loadBound = 1000

const loadSpec = `name: kiosk
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

// A real `thea serve` process, loopback only, with a task waiting on a
// person, against thousands of stalled connections (no headers, part of
// the headers, or headers declaring a 60,000-byte body never sent) from
// ten client addresses, first held, then churned (each closed and
// replaced as fast as the test can): the operator's /v1/status, on a new
// connection every time, and its stop each answer within a second, and
// the operator's event stream runs to done. With a token (the attackers
// have none) and on loopback without one.
func TestServeUnderStalledConnections(t *testing.T) {
	n := 3000
	if v, err := strconv.Atoi(os.Getenv(loadConnsEnv)); err == nil && v > 0 {
		n = v
	}
	for _, mode := range []struct{ name, token string }{
		{"token", "load-test-token-0123456789"},
		{"loopback", ""},
	} {
		t.Run(mode.name, func(t *testing.T) { serveUnderLoad(t, n, mode.token) })
	}
}

func serveUnderLoad(t *testing.T, n int, token string) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"spec.yaml":  loadSpec,
		"turns.yaml": "- tool_calls: [{name: query_user, arguments: {question: \"Anyone?\"}}]\n- text: \"Stopped.\"\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	base, stopServer := startServeProcess(t, dir, token)
	bound := testtime.Scale(time.Second)
	op := operator{t: t, base: base, token: token, client: &http.Client{
		Timeout: bound, Transport: &http.Transport{DisableKeepAlives: true}}}

	if code := op.do("POST", "/v1/tasks", `{"instruction": "wait for a person"}`); code != http.StatusAccepted {
		t.Fatalf("submit: %d", code)
	}
	events := op.stream("/v1/tasks/1/events")
	events.until("pending")

	addr := strings.TrimPrefix(base, "http://")
	held := make([]net.Conn, n)
	failed := 0
	began := time.Now()
	for i := range held {
		c, err := stall(addr, i)
		if err != nil {
			failed++
			continue
		}
		held[i] = c
	}
	opened := time.Since(began)
	t.Cleanup(func() {
		for _, c := range held {
			if c != nil {
				c.Close()
			}
		}
	})

	held1, open1 := op.statusRounds(200) // the stalled connections held as they are

	// Churn: close the oldest and open a new one, round and round (at
	// most ten rounds).
	ctx, stopChurn := context.WithCancel(t.Context())
	var churned atomic.Int64
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; ctx.Err() == nil && churned.Load() < int64(10*n); i = (i + 1) % n {
			if held[i] != nil {
				held[i].Close()
			}
			held[i], _ = stall(addr, i)
			churned.Add(1)
		}
	})
	t.Cleanup(func() { stopChurn(); wg.Wait() }) // first, should the test end early
	held2, open2 := op.statusRounds(200)
	t0 := time.Now()
	if code := op.do("POST", "/v1/tasks/1/stop", `{"interrupt": true}`); code != http.StatusAccepted {
		t.Fatalf("stop under load: %d", code)
	}
	stopTook := time.Since(t0)
	stopChurn()
	wg.Wait()
	events.until("done")

	t.Logf("%d stalled connections opened in %v (%d dials failed); the server held at most %d (bound %d); "+
		"the operator's /v1/status, on a new connection each: while held p50 %v p99 %v max %v; "+
		"while churned (%d replaced, server held at most %d) p50 %v p99 %v max %v; stop %v",
		n, opened.Round(time.Millisecond), failed, open1, loadBound,
		pct(held1, 50), pct(held1, 99), slices.Max(held1).Round(10*time.Microsecond),
		churned.Load(), open2, pct(held2, 50), pct(held2, 99), slices.Max(held2).Round(10*time.Microsecond), stopTook.Round(10*time.Microsecond))
	if open1 < loadBound/2 {
		t.Errorf("the server held at most %d connections: the load did not reach the bound %d", open1, loadBound)
	}
	for _, c := range held {
		if c != nil {
			c.Close()
		}
	}
	if out := stopServer(); !strings.Contains(out, "connections were closed to keep the connection bounds") {
		t.Errorf("the server did not report closing connections at its bounds:\n%s", out)
	}
}

// startServeProcess runs `thea serve` (this test binary as thea) on
// 127.0.0.1 with an OS-chosen port and returns its base URL, and a stop
// function that sends SIGTERM, waits for exit 0 and returns its stderr.
func startServeProcess(t *testing.T, dir, token string) (string, func() string) {
	t.Helper()
	return serveProcess(t, dir, token, "--spec", "spec.yaml", "--max-conns", strconv.Itoa(loadBound))
}

// serveProcess runs `thea serve --addr 127.0.0.1:0 ARGS` in dir, as
// startServeProcess says.
func serveProcess(t *testing.T, dir, token string, args ...string) (string, func() string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), ptyMainEnv+"=1", "THEA_SERVE_TOKEN="+token)
	pr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	stderr := &lockedBuffer{}
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			line := sc.Text()
			stderr.add(line + "\n")
			if _, after, ok := strings.Cut(line, " on http://"); ok {
				urls <- "http://" + strings.Fields(after)[0]
			}
		}
		close(urls)
		exited <- cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // a no-op once it has exited
		if t.Failed() {
			t.Logf("serve's stderr:\n%s", stderr.String())
		}
	})
	var base string
	select {
	case u, ok := <-urls:
		if !ok {
			t.Fatalf("serve did not start: %v\n%s", <-exited, stderr.String())
		}
		base = u
	case <-time.After(testtime.Scale(10 * time.Second)):
		t.Fatalf("serve did not start in time:\n%s", stderr.String())
	}
	return base, func() string {
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("serve after SIGTERM: %v\n%s", err, stderr.String())
			}
		case <-time.After(testtime.Scale(10 * time.Second)):
			t.Fatalf("serve did not end after SIGTERM:\n%s", stderr.String())
		}
		return stderr.String()
	}
}

// stall opens stalled connection i from one of ten loopback addresses:
// nothing sent, part of the headers, or headers declaring a body that
// never comes (without a token).
func stall(addr string, i int) (net.Conn, error) {
	d := net.Dialer{Timeout: testtime.Scale(time.Second), LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, byte(1+i%10))}}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	switch i % 3 {
	case 1:
		_, _ = io.WriteString(c, "GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\n")
	case 2:
		_, _ = io.WriteString(c, "POST /v1/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n")
	}
	// A write to a connection the server has already closed fails; the
	// connection is still one the server had to deal with.
	return c, nil
}

// operator is the person with the token (or on loopback without one).
type operator struct {
	t      *testing.T
	base   string
	token  string
	client *http.Client
}

func (o operator) request(method, path, body string) *http.Request {
	o.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(o.t.Context(), method, o.base+path, rd)
	if err != nil {
		o.t.Fatal(err)
	}
	if method == "POST" {
		req.Header.Set("Content-Type", "application/json")
	}
	if o.token != "" {
		req.Header.Set("Authorization", "Bearer "+o.token)
	}
	return req
}

// do sends one request on a new connection; the client's timeout is the
// bound the test proves.
func (o operator) do(method, path, body string) int {
	o.t.Helper()
	code, _ := o.fetch(method, path, body)
	return code
}

func (o operator) fetch(method, path, body string) (int, []byte) {
	o.t.Helper()
	resp, err := o.client.Do(o.request(method, path, body))
	if err != nil {
		o.t.Fatalf("the operator's %s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		o.t.Fatalf("the operator's %s %s: %v", method, path, err)
	}
	return resp.StatusCode, b
}

// statusRounds asks for /v1/status k times and returns the latencies and
// the most connections the server said it held, checked against its bound.
func (o operator) statusRounds(k int) ([]time.Duration, int) {
	o.t.Helper()
	out := make([]time.Duration, 0, k)
	most := 0
	for range k {
		t0 := time.Now()
		code, b := o.fetch("GET", "/v1/status", "")
		out = append(out, time.Since(t0))
		var st serve.Status
		if err := json.Unmarshal(b, &st); code != http.StatusOK || err != nil || st.Connections == nil {
			o.t.Fatalf("status under load: %d %v %s", code, err, b)
		}
		if c := st.Connections; c.Open > c.Max || c.Max != loadBound {
			o.t.Fatalf("the server holds %d connections, bound %d (want %d)", c.Open, c.Max, loadBound)
		}
		most = max(most, st.Connections.Open)
	}
	return out, most
}

// eventStream is the operator's open SSE connection.
type eventStream struct {
	t  *testing.T
	sc *bufio.Scanner
}

func (o operator) stream(path string) *eventStream {
	o.t.Helper()
	resp, err := (&http.Client{}).Do(o.request("GET", path, ""))
	if err != nil || resp.StatusCode != http.StatusOK {
		o.t.Fatalf("events: %v %v", resp, err)
	}
	o.t.Cleanup(func() { resp.Body.Close() })
	return &eventStream{t: o.t, sc: bufio.NewScanner(resp.Body)}
}

// until reads up to the first event of the given kind.
func (s *eventStream) until(kind string) {
	s.t.Helper()
	for s.sc.Scan() {
		if s.sc.Text() == "event: "+kind {
			return
		}
	}
	s.t.Fatalf("the event stream ended before %q: %v", kind, s.sc.Err())
}

func pct(ds []time.Duration, p int) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[(len(s)-1)*p/100].Round(10 * time.Microsecond)
}

// lockedBuffer collects a subprocess's stderr.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b.WriteString(s)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A negative bound is a usage error, before anything starts.
func TestServeBoundFlags(t *testing.T) {
	for _, args := range [][]string{{"--max-conns", "-1"}, {"--max-conns-per-ip", "-5"}} {
		code, _, errs := run(t, append([]string{"serve", "--spec", householdSpec}, args...)...)
		if code != 2 || !strings.Contains(errs, "want positive bounds") {
			t.Errorf("%v: exit %d, stderr %q; want a usage error", args, code, errs)
		}
	}
}
