package cli_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"
)

// otlpNames is an OTLP/HTTP receiver that keeps the names of the spans it
// is sent.
type otlpNames struct {
	mu    sync.Mutex
	names []string
}

func (o *otlpNames) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, err := io.ReadAll(r.Body)
	var req coltrace.ExportTraceServiceRequest
	if err != nil || r.URL.Path != "/v1/traces" || proto.Unmarshal(b, &req) != nil {
		http.Error(w, "want an OTLP protobuf export at /v1/traces", http.StatusBadRequest)
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for _, sp := range ss.Spans {
				o.names = append(o.names, sp.Name)
			}
		}
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
}

// thea run sends a task's trace when --otlp-endpoint or the standard
// OTEL_EXPORTER_OTLP_ENDPOINT names a receiver, and only then; a metrics
// listener without a token is refused off loopback.
func TestRunSendsTracesWhenConfigured(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bot")
	if code, _, errs := run(t, "init", "bot", "--body", "fixed", "--dir", dir); code != 0 {
		t.Fatal(errs)
	}
	spec := filepath.Join(dir, "spec.cue")
	for _, how := range []string{"flag", "env", "off"} {
		t.Run(how, func(t *testing.T) {
			rc := &otlpNames{}
			srv := httptest.NewServer(rc)
			defer srv.Close()
			args := []string{"run", "--spec", spec, "--run-log", t.TempDir()}
			switch how {
			case "flag":
				args = append(args, "--otlp-endpoint", srv.URL+"/v1/traces")
			case "env":
				t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", srv.URL)
			case "off":
				t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "")
				t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")
			}
			if code, _, errs := run(t, append(args, "Look to the left")...); code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			rc.mu.Lock()
			defer rc.mu.Unlock()
			got := strings.Join(rc.names, ",")
			if how == "off" {
				if got != "" {
					t.Errorf("traces sent without being configured: %s", got)
				}
				return
			}
			if !strings.Contains(got, "invoke_agent bot") || !strings.Contains(got, "turn 1") || !strings.Contains(got, "chat") {
				t.Errorf("spans received: %q, want the task, its turns and model calls", got)
			}
		})
	}
	code, _, errs := run(t, "run", "--spec", spec, "--metrics-addr", "0.0.0.0:9464", "Look to the left")
	if code != 2 || !strings.Contains(errs, "--metrics-addr 0.0.0.0:9464: want a loopback address") {
		t.Errorf("--metrics-addr off loopback: exit %d: %s", code, errs)
	}
}
