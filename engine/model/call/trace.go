package call

import "context"

// Trace is one model call's view of its HTTP exchange. An adapter starts one
// per Generate with WithTrace; the Client reads it from the request context.
// A call runs on one goroutine (the client calls Do synchronously), so a
// Trace needs no lock.
type Trace struct {
	// RewriteRequest, if set, replaces the request body once before the first
	// attempt (an adapter supplying what its client library cannot express).
	RewriteRequest func(body []byte) ([]byte, error)
	// RewriteResponse, if set, replaces a successful response body before the
	// client library decodes it.
	RewriteResponse func(body []byte) ([]byte, error)
	// Err is the final failure, set when Do gives up.
	Err *Error
	// Attempts is how many attempts were made.
	Attempts int
}

type traceKey struct{}

// WithTrace returns ctx carrying t.
func WithTrace(ctx context.Context, t *Trace) context.Context {
	return context.WithValue(ctx, traceKey{}, t)
}

func traceFrom(ctx context.Context) *Trace {
	t, _ := ctx.Value(traceKey{}).(*Trace)
	return t
}
