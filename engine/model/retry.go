package model

import (
	"context"
	"time"
)

// Retry is one failed attempt of a model call that is about to be tried
// again: what failed and how long the client waits first. Network adapters
// report each to the observer the caller put in the context, so a retried
// and recovered call still leaves a record.
type Retry struct {
	// Provider names the provider ("openai", "anthropic", ...).
	Provider string `json:"provider"`
	// Purpose is the call's purpose (set by the engine, which knows it).
	Purpose Purpose `json:"purpose,omitempty"`
	// Attempt is the attempt that failed, from 1.
	Attempt int `json:"attempt"`
	// Status is its HTTP status; 0 when no answer came (a timeout, a broken
	// connection).
	Status int `json:"status,omitempty"`
	// WaitMS is how long the client waits before the next attempt, in
	// milliseconds: the server's Retry-After, or the backoff.
	WaitMS int64 `json:"wait_ms"`
	// RetryAfter: the wait is what the server asked for.
	RetryAfter bool `json:"retry_after,omitempty"`
	// Message is the provider's own message, or what went wrong on the way.
	Message string `json:"message"`
}

// Wait is WaitMS as a duration.
func (r Retry) Wait() time.Duration { return time.Duration(r.WaitMS) * time.Millisecond }

type retryKey struct{}

// WithRetryReport returns ctx carrying f: each retry of a model call made
// with it is reported to f, on the calling goroutine, before the wait.
func WithRetryReport(ctx context.Context, f func(Retry)) context.Context {
	return context.WithValue(ctx, retryKey{}, f)
}

// ReportRetry hands r to the context's observer, if any.
func ReportRetry(ctx context.Context, r Retry) {
	if f, ok := ctx.Value(retryKey{}).(func(Retry)); ok && f != nil {
		f(r)
	}
}
