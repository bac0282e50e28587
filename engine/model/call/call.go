package call

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/schema"
)

// The backoff of a policy. They are the client's own, not spec fields: a
// spec sets a model's timeout and retries (model.timeout, model.retries),
// whose one default is the CUE schema's.
const (
	DefaultBaseDelay     = 500 * time.Millisecond
	DefaultMaxDelay      = 30 * time.Second
	DefaultMaxRetryAfter = 60 * time.Second
	// maxBody bounds a response read into memory (a chat answer is small).
	maxBody = 32 << 20
)

// Policy is how one model's calls are timed and retried.
type Policy struct {
	// Provider names the provider in errors ("openai", "anthropic", ...).
	Provider string
	// KeyEnv is the variable model.api_key_env names (empty: none), for the
	// hint of a 401 or 403.
	KeyEnv string
	// Timeout bounds each attempt, response body included.
	Timeout time.Duration
	// Retries is how many more attempts follow a retryable failure.
	Retries int
	// BaseDelay doubles with each retry up to MaxDelay; jitter spreads it over
	// [d/2, d).
	BaseDelay, MaxDelay time.Duration
	// MaxRetryAfter is the longest Retry-After honoured; a server asking for
	// more ends the call at once with its error.
	MaxRetryAfter time.Duration
}

// PolicyFor takes the timeout and retries from a spec's model section (and
// the key's variable from its endpoint). schema.Load fills their defaults;
// a section without them (a spec built in Go) is an error, never a guess.
func PolicyFor(provider string, m schema.Model, e Endpoint) (Policy, error) {
	switch {
	case m.Timeout <= 0:
		return Policy{}, fmt.Errorf("%s: model timeout is %s: it must be positive (schema.Load fills the schema's default)", provider, m.Timeout.D())
	case m.Retries < 0:
		return Policy{}, fmt.Errorf("%s: model retries is %d: it must not be negative", provider, m.Retries)
	}
	return Policy{Provider: provider, KeyEnv: e.APIKeyEnv, Timeout: m.Timeout.D(), Retries: m.Retries,
		BaseDelay: DefaultBaseDelay, MaxDelay: DefaultMaxDelay, MaxRetryAfter: DefaultMaxRetryAfter}, nil
}

// keyHint is what to check after a 401 or 403: the variable the key came
// from, or that the server wants one.
func (p Policy) keyHint(status int) string {
	switch {
	case status != 401 && status != 403:
		return ""
	case p.KeyEnv == "":
		return "the server wants a key: name the environment variable holding it in model.api_key_env"
	case status == 403:
		return "check that the key in " + p.KeyEnv + " (model.api_key_env) may use this model"
	}
	return "check the key in " + p.KeyEnv + " (model.api_key_env)"
}

// Options are the injectable parts of a provider's HTTP client; the zero
// value is the production setting.
type Options struct {
	// HTTP sends each attempt; nil is a client of its own with no overall
	// timeout (the policy times each attempt).
	HTTP *http.Client
	// Sleep waits between attempts and returns early with ctx's error; nil
	// waits on a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Jitter returns a number in [0, 1); nil uses a generator seeded from the
	// runtime. Tests pass a seeded one.
	Jitter func() float64
}

// SeededJitter is a deterministic, concurrency-safe jitter source.
func SeededJitter(seed uint64) func() float64 {
	var mu sync.Mutex
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	return func() float64 {
		mu.Lock()
		defer mu.Unlock()
		return r.Float64()
	}
}

// Client is an HTTP Doer that applies a Policy to every request it sends.
type Client struct {
	policy Policy
	http   *http.Client
	sleep  func(ctx context.Context, d time.Duration) error
	jitter func() float64
	// header edits the headers of each attempt (e.g. drops an empty
	// Authorization for a keyless local server).
	header func(http.Header)
}

// New makes a client for policy p.
func New(p Policy, o Options, header func(http.Header)) *Client {
	c := &Client{policy: p, http: o.HTTP, sleep: o.Sleep, jitter: o.Jitter, header: header}
	if c.http == nil {
		c.http = &http.Client{}
		if t, ok := http.DefaultTransport.(*http.Transport); ok {
			c.http.Transport = t.Clone() // own connection pool, same proxy settings
		}
	}
	if c.sleep == nil {
		c.sleep = sleepCtx
	}
	if c.jitter == nil {
		c.jitter = rand.Float64
	}
	return c
}

// Policy returns the client's policy.
func (c *Client) Policy() Policy { return c.policy }

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Do sends req with the policy: each attempt under its own timeout, retried
// on 429, 5xx, timeouts and reset connections. The response body is read
// within the attempt, so a stalled body also times out. The request context
// ending aborts the attempt at once and returns its error. Each retry is
// reported (model.ReportRetry) before its wait. When the retries run out (or
// the failure is not retryable) Do returns an *Error and records it in the
// context's Trace.
func (c *Client) Do(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	tr := traceFrom(ctx)
	body, err := readRequestBody(req)
	if err != nil {
		return nil, c.fail(tr, &Error{Provider: c.policy.Provider, Err: err})
	}
	if tr != nil && tr.RewriteRequest != nil {
		if body, err = tr.RewriteRequest(body); err != nil {
			return nil, c.fail(tr, &Error{Provider: c.policy.Provider, Err: fmt.Errorf("build request: %w", err)})
		}
	}
	for attempt := 1; ; attempt++ {
		if tr != nil {
			tr.Attempts = attempt
		}
		resp, e := c.attempt(ctx, req, body)
		if e == nil {
			if tr != nil && tr.RewriteResponse != nil {
				b, err := tr.RewriteResponse(resp.body)
				if err != nil {
					return nil, c.fail(tr, &Error{Provider: c.policy.Provider, Status: resp.StatusCode, Attempts: attempt, Err: err})
				}
				resp.body = b
			}
			return resp.httpResponse(), nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		e.Attempts = attempt
		if !e.retryable() || attempt > c.policy.Retries {
			return nil, c.fail(tr, e)
		}
		delay := c.backoff(attempt)
		if e.RetryAfter > 0 {
			if e.RetryAfter > c.policy.MaxRetryAfter {
				e.Err = fmt.Errorf("the server asks to retry after %s, longer than %s", e.RetryAfter, c.policy.MaxRetryAfter)
				return nil, c.fail(tr, e)
			}
			delay = e.RetryAfter
		}
		model.ReportRetry(ctx, model.Retry{Provider: c.policy.Provider, Attempt: attempt, Status: e.Status,
			WaitMS: delay.Milliseconds(), RetryAfter: e.RetryAfter > 0, Message: e.detail()})
		if err := c.sleep(ctx, delay); err != nil {
			return nil, err
		}
	}
}

func (c *Client) fail(tr *Trace, e *Error) error {
	if tr != nil {
		tr.Err = e
	}
	return e
}

// backoff is the delay before attempt+1: BaseDelay·2^(attempt-1), capped,
// spread over [d/2, d).
func (c *Client) backoff(attempt int) time.Duration {
	d := c.policy.BaseDelay
	for i := 1; i < attempt && d < c.policy.MaxDelay; i++ {
		d *= 2
	}
	d = min(d, c.policy.MaxDelay)
	return d/2 + time.Duration(c.jitter()*float64(d/2))
}

type response struct {
	*http.Response
	body []byte
}

func (r *response) httpResponse() *http.Response {
	out := *r.Response
	out.Body = io.NopCloser(bytes.NewReader(r.body))
	out.ContentLength = int64(len(r.body))
	return &out
}

// attempt sends one try. A nil *Error means a 2xx response, fully read.
func (c *Client) attempt(ctx context.Context, req *http.Request, body []byte) (*response, *Error) {
	actx, cancel := context.WithTimeout(ctx, c.policy.Timeout)
	defer cancel()
	r := req.Clone(actx)
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	r.ContentLength = int64(len(body))
	if c.header != nil {
		c.header(r.Header)
	}
	e := &Error{Provider: c.policy.Provider}
	resp, err := c.http.Do(r)
	if err != nil {
		c.classify(e, actx, ctx, err)
		return nil, e
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	_ = resp.Body.Close() // the body was read to the end or the attempt failed
	if err == nil && len(b) > maxBody {
		err = fmt.Errorf("response larger than %d bytes", maxBody)
	}
	if err != nil {
		c.classify(e, actx, ctx, fmt.Errorf("reading the response: %w", err))
		e.Status = resp.StatusCode
		return nil, e
	}
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return &response{Response: resp, body: b}, nil
	}
	e.Status = resp.StatusCode
	e.Message, e.Param = errorMessage(b)
	e.Hint = c.policy.keyHint(e.Status)
	e.RetryAfter = retryAfter(resp.Header.Get("Retry-After"), time.Now())
	if ms, err := strconv.ParseFloat(resp.Header.Get("Retry-After-Ms"), 64); err == nil && ms > 0 {
		// OpenAI's finer-grained form wins over the rounded seconds.
		e.RetryAfter = time.Duration(ms * float64(time.Millisecond))
	}
	return nil, e
}

func (c *Client) classify(e *Error, actx, ctx context.Context, err error) {
	e.Err = err
	switch {
	case ctx.Err() != nil:
	case errors.Is(actx.Err(), context.DeadlineExceeded):
		e.Timeout = c.policy.Timeout
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.EPIPE):
		e.Reset = true
	}
}

func readRequestBody(req *http.Request) ([]byte, error) {
	if req.Body == nil {
		return nil, nil
	}
	defer req.Body.Close()
	b, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, fmt.Errorf("reading the request body: %w", err)
	}
	return b, nil
}

// retryAfter parses a Retry-After header: seconds or an HTTP date.
func retryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
