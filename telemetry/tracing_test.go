package telemetry_test

import (
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/thea-harness/thea/telemetry"
)

// receiver is an OTLP/HTTP trace endpoint: it decodes each protobuf
// ExportTraceServiceRequest and keeps its spans.
type receiver struct {
	mu    sync.Mutex
	spans []*tracepb.Span
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "want a protobuf POST to /v1/traces", http.StatusBadRequest)
		return
	}
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	b, err := io.ReadAll(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var req coltrace.ExportTraceServiceRequest
	if err := proto.Unmarshal(b, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rc.mu.Lock()
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			rc.spans = append(rc.spans, ss.Spans...)
		}
	}
	rc.mu.Unlock()
	out, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

func attr(sp *tracepb.Span, key string) *commonpb.AnyValue {
	for _, a := range sp.Attributes {
		if a.Key == key {
			return a.Value
		}
	}
	return nil
}

// everything is each string a span carries: its name, status, attributes
// and events' attributes.
func everything(sp *tracepb.Span) string {
	parts := []string{sp.Name, sp.GetStatus().GetMessage()}
	kvs := append([]*commonpb.KeyValue(nil), sp.Attributes...)
	for _, e := range sp.Events {
		parts = append(parts, e.Name)
		kvs = append(kvs, e.Attributes...)
	}
	for _, a := range kvs {
		parts = append(parts, a.Key+"="+a.Value.String())
	}
	return strings.Join(parts, "\n")
}

// A real task sent over OTLP/HTTP to a receiver: one trace, the task's
// invoke_agent span, under it one span per turn, a chat span per model
// call with the GenAI attributes, an execute_tool span with its hook's
// decision as an event, and no secret in any name, attribute or status
// (the made-up tool's name held one).
func TestTraceOverOTLP(t *testing.T) {
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	tr, err := telemetry.NewTracing(t.Context(), telemetry.TracingConfig{Endpoint: srv.URL + "/v1/traces", Agent: "kiosk", Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	rep := runTask(t, tr.Sink)
	if err := tr.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()

	var root *tracepb.Span
	byName := map[string][]*tracepb.Span{}
	traces := map[string]bool{}
	for _, sp := range rc.spans {
		traces[fmt.Sprintf("%x", sp.TraceId)] = true
		name, _, _ := strings.Cut(sp.Name, " ")
		byName[name] = append(byName[name], sp)
		if len(sp.ParentSpanId) == 0 {
			root = sp
		}
		if s := everything(sp); strings.Contains(s, secret) {
			t.Errorf("span %q carries the secret:\n%s", sp.Name, s)
		}
	}
	if len(traces) != 1 || root == nil || root.Name != "invoke_agent kiosk" || attr(root, "gen_ai.operation.name").GetStringValue() != "invoke_agent" {
		t.Fatalf("want one trace under an invoke_agent span; got %d traces, root %v", len(traces), root)
	}
	turnSpans := byName["turn"]
	if len(turnSpans) != rep.Turns {
		t.Errorf("%d turn spans, want one per turn (%d)", len(turnSpans), rep.Turns)
	}
	turnIDs := map[string]bool{}
	for i, sp := range turnSpans {
		if string(sp.ParentSpanId) != string(root.SpanId) {
			t.Errorf("turn span %q is not the task's child", sp.Name)
		}
		turnIDs[string(sp.SpanId)] = true
		if i > 0 && sp.StartTimeUnixNano < turnSpans[i-1].EndTimeUnixNano {
			t.Errorf("turn spans overlap: %q starts before %q ends", sp.Name, turnSpans[i-1].Name)
		}
	}
	decides := 0
	for _, sp := range byName["chat"] {
		if attr(sp, "thea.model.purpose").GetStringValue() != "decide" {
			continue
		}
		decides++
		if attr(sp, "gen_ai.operation.name").GetStringValue() != "chat" || attr(sp, "gen_ai.provider.name").GetStringValue() != "script" ||
			attr(sp, "gen_ai.usage.input_tokens") == nil || !turnIDs[string(sp.ParentSpanId)] {
			t.Errorf("chat span lacks the GenAI attributes or its turn: %s", everything(sp))
		}
	}
	if decides != rep.Turns {
		t.Errorf("%d decide chat spans, want %d", decides, rep.Turns)
	}
	var notify, madeUp *tracepb.Span
	for _, sp := range byName["execute_tool"] {
		switch name := attr(sp, "gen_ai.tool.name").GetStringValue(); {
		case name == "notify_user":
			notify = sp
		case strings.HasPrefix(name, "vault_"):
			madeUp = sp
		}
	}
	if notify == nil || attr(notify, "gen_ai.operation.name").GetStringValue() != "execute_tool" || !turnIDs[string(notify.ParentSpanId)] {
		t.Fatalf("no execute_tool span for notify_user under a turn: %v", byName["execute_tool"])
	}
	if len(notify.Events) == 0 || notify.Events[0].Name != "hook" || !strings.Contains(everything(notify), "no_shouting") {
		t.Errorf("notify_user's span lacks its hook's decision: %s", everything(notify))
	}
	if madeUp == nil || !strings.Contains(everything(madeUp), "[redacted]") || madeUp.GetStatus().GetCode() != tracepb.Status_STATUS_CODE_ERROR {
		t.Errorf("the made-up tool's span is not a redacted failure: %v", madeUp)
	}
}
