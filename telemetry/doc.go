// Package telemetry turns a session's redacted event stream into the
// field's formats: Prometheus metrics (one registry per process, served at
// /metrics) and OpenTelemetry traces over OTLP/HTTP, each an event sink.
package telemetry
