package telemetry

import (
	"context"
	"errors"
	"fmt"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/thea-harness/thea/engine"
)

// The standard variables that turn tracing on (the OTLP exporter reads
// them, and the OTEL_EXPORTER_OTLP_* headers, timeout and TLS ones, itself).
const (
	EnvEndpoint       = "OTEL_EXPORTER_OTLP_ENDPOINT"
	EnvTracesEndpoint = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
)

// TracingConfig says where traces go.
type TracingConfig struct {
	// Endpoint is an OTLP/HTTP traces URL (http://collector:4318/v1/traces);
	// empty leaves it to the standard environment variables.
	Endpoint string
	// Agent names the session (the spec's name): gen_ai.agent.name.
	Agent string
	// Version is Thea's version, for the service.version resource attribute.
	Version string
}

// TracingWanted reports whether traces are configured: a --otlp-endpoint
// flag or one of the standard endpoint variables. Without them Thea sends
// nothing anywhere.
func TracingWanted(flag string, getenv func(string) string) bool {
	return flag != "" || getenv(EnvEndpoint) != "" || getenv(EnvTracesEndpoint) != ""
}

// Tracing exports each task as an OpenTelemetry trace over OTLP/HTTP.
type Tracing struct {
	tp     *sdktrace.TracerProvider
	tracer trace.Tracer
	agent  string
}

// NewTracing starts the OTLP/HTTP exporter; spans are batched and sent in
// the background, and Shutdown sends what remains.
func NewTracing(ctx context.Context, cfg TracingConfig) (*Tracing, error) {
	var opts []otlptracehttp.Option
	if cfg.Endpoint != "" {
		opts = append(opts, otlptracehttp.WithEndpointURL(cfg.Endpoint))
	}
	exp, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("OTLP trace exporter: %w", err)
	}
	attrs := []attribute.KeyValue{semconv.ServiceName("thea")}
	if cfg.Version != "" {
		attrs = append(attrs, semconv.ServiceVersion(cfg.Version))
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp),
		sdktrace.WithResource(resource.NewWithAttributes(semconv.SchemaURL, attrs...)))
	return &Tracing{tp: tp, tracer: tp.Tracer("github.com/thea-harness/thea/telemetry"), agent: cfg.Agent}, nil
}

// Sink is an engine.SinkFactory: one trace per task.
func (t *Tracing) Sink(info engine.TaskInfo) (engine.Sink, error) {
	return &traceSink{t: t, task: info.Task, tools: map[string]trace.Span{}}, nil
}

// Flush sends the spans ended so far.
func (t *Tracing) Flush(ctx context.Context) error {
	if err := t.tp.ForceFlush(ctx); err != nil {
		return fmt.Errorf("flushing traces: %w", err)
	}
	return nil
}

// Shutdown sends the remaining spans and stops the exporter.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if err := t.tp.Shutdown(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("shutting tracing down: %w", err)
	}
	return nil
}
