package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/telemetry"
)

// A real Prometheus server (Debian's prometheus) scrapes /metrics with the
// server's bearer token while a task waits on its third turn, and its query
// API answers thea_turns_total 3. Without the token /metrics is refused.
func TestPrometheusScrapesTurnsDuringATask(t *testing.T) {
	prom, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skip("Debian's prometheus is not installed (apt-get install -y prometheus; .ci/run installs it): the real scrape is not tested")
	}
	const token = "metrics-scrape-token-4f2a9c"
	m, err := telemetry.NewMetrics()
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Token: token, Metrics: m.Handler()}
	f := startWithSinks(t, specYAML, `
- tool_calls: [{name: notify_user, arguments: {message: "one"}}]
- tool_calls: [{name: notify_user, arguments: {message: "two"}}]
- tool_calls: [{name: query_user, arguments: {question: "Go on?"}}]
- text: "Done."
`, cfg, m.Sink)
	id := f.submit("count to three")
	s := f.events(id, "")
	q := decodeAs[Pending](t, last(s.until("pending")))

	resp, err := http.Get(f.base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("/metrics without the token: %d, want 401", resp.StatusCode)
	}

	dir := t.TempDir()
	write(t, filepath.Join(dir, "token"), token)
	write(t, filepath.Join(dir, "prometheus.yml"), fmt.Sprintf(`global: {scrape_interval: 1s, scrape_timeout: 1s}
scrape_configs:
  - job_name: thea
    metrics_path: /metrics
    authorization: {credentials_file: %q}
    static_configs: [{targets: [%q]}]
`, filepath.Join(dir, "token"), f.addr()))
	promAddr := freeAddr(t)
	var log bytes.Buffer
	cmd := exec.CommandContext(t.Context(), prom, "--config.file="+filepath.Join(dir, "prometheus.yml"),
		"--storage.tsdb.path="+filepath.Join(dir, "data"), "--web.listen-address="+promAddr)
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		if t.Failed() {
			t.Logf("prometheus's log:\n%s", log.String())
		}
	}()

	query := "http://" + promAddr + "/api/v1/query?query=" + url.QueryEscape(`thea_turns_total{job="thea"}`)
	var got string
	next := time.Now()
	testtime.Wait(t, "Prometheus answering thea_turns_total 3", func() bool {
		if time.Now().Before(next) { // a query every 100 ms, not every poll
			return false
		}
		next = time.Now().Add(100 * time.Millisecond)
		got = promValue(query)
		return got == "3"
	})
	if code := f.do("POST", fmt.Sprintf("/v1/questions/%d/answer", q.ID), map[string]string{"answer": "yes"}, nil); code != http.StatusOK {
		t.Fatalf("answer: %d", code)
	}
	s.rest()
}

// promValue is the first sample's value of an instant query, or "" (not
// up yet, no sample yet, an error).
func promValue(query string) string {
	resp, err := http.Get(query)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return ""
	}
	var r struct {
		Status string `json:"status"`
		Data   struct {
			Result []struct {
				Value [2]any `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	if json.Unmarshal(b, &r) != nil || r.Status != "success" || len(r.Data.Result) == 0 {
		return ""
	}
	v, _ := r.Data.Result[0].Value[1].(string)
	return v
}

// freeAddr is a loopback address no one listens on (the port the OS gave
// and took back).
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	if err := ln.Close(); err != nil {
		t.Fatal(err)
	}
	return addr
}

// startWithSinks serves a session built from spec whose events also feed
// sinks.
func startWithSinks(t *testing.T, spec, turns string, cfg Config, sinks ...engine.SinkFactory) *fixture {
	t.Helper()
	opts := sessionOptions(t)
	opts.Sinks = sinks
	srv, h := newSession(t, loadSpec(t, spec, turns, opts), opts, cfg)
	return serveSession(t, srv, h, cfg)
}
