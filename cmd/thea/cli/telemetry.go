package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/serve"
	"github.com/thea-harness/thea/telemetry"
)

// observability is a session's metrics and traces: sinks of its event
// stream, and what must be stopped when it ends.
type observability struct {
	metrics *telemetry.Metrics // nil when off
	tracing *telemetry.Tracing // nil when off
	stops   []func(context.Context) error
}

// addTelemetryFlags declares --otlp-endpoint (and, for thea run,
// --metrics-addr; thea serve always serves /metrics).
func addTelemetryFlags(cmd *cobra.Command, metricsAddr bool) {
	cmd.Flags().String("otlp-endpoint", "", "send OpenTelemetry traces to this OTLP/HTTP URL (http://collector:4318/v1/traces); "+
		"off unless this or OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set")
	if metricsAddr {
		cmd.Flags().String("metrics-addr", "", "serve Prometheus metrics at http://ADDR/metrics (a loopback address: 127.0.0.1:9464)")
	}
}

// startObservability builds what the flags and the environment ask for.
// withMetrics builds the registry even without --metrics-addr (thea serve
// serves it on its own listener).
func (a *App) startObservability(cmd *cobra.Command, agent string, withMetrics bool, logger *slog.Logger) (*observability, error) {
	o := &observability{}
	addr := ""
	if cmd.Flags().Lookup("metrics-addr") != nil {
		addr = a.str(cmd, "metrics-addr")
	}
	if withMetrics || addr != "" {
		m, err := telemetry.NewMetrics()
		if err != nil {
			return nil, err
		}
		o.metrics = m
	}
	if addr != "" {
		// No token on this listener: it must not leave the machine.
		if !serve.IsLoopback(addr) {
			return nil, usageError{fmt.Errorf("--metrics-addr %s: want a loopback address (127.0.0.1:PORT); "+
				"to scrape from elsewhere, use thea serve, whose /metrics takes its bearer token", addr)}
		}
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return nil, fmt.Errorf("--metrics-addr: %w", err)
		}
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", o.metrics.Handler())
		srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go func() {
			if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				logger.Warn("metrics listener", "err", err)
			}
		}()
		o.stops = append(o.stops, srv.Shutdown)
	}
	endpoint := a.str(cmd, "otlp-endpoint")
	if telemetry.TracingWanted(endpoint, os.Getenv) {
		tr, err := telemetry.NewTracing(cmd.Context(), telemetry.TracingConfig{Endpoint: endpoint, Agent: agent, Version: version()})
		if err != nil {
			return nil, errors.Join(err, o.stop(cmd.Context()))
		}
		o.tracing = tr
		o.stops = append(o.stops, tr.Shutdown)
	}
	return o, nil
}

// sinks are the session's extra event sinks.
func (o *observability) sinks() []engine.SinkFactory {
	var s []engine.SinkFactory
	if o.metrics != nil {
		s = append(s, o.metrics.Sink)
	}
	if o.tracing != nil {
		s = append(s, o.tracing.Sink)
	}
	return s
}

// stop sends the traces left and closes the metrics listener, within a
// bound even when ctx has ended (the process is leaving).
func (o *observability) stop(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	var errs []error
	for _, f := range o.stops {
		errs = append(errs, f(ctx))
	}
	return errors.Join(errs...)
}

// release is the version make release links in (-ldflags -X
// github.com/thea-harness/thea/cmd/thea/cli.release=v1.2.3): set by the
// linker, never written at run time.
var release string

// version is the release's version, else the module version go build
// stamped (a tag or a commit), for thea --version and traces'
// service.version.
func version() string {
	if release != "" {
		return release
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}
