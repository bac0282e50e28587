package call

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
)

type sleeps struct{ got []time.Duration }

func (s *sleeps) sleep(ctx context.Context, d time.Duration) error {
	s.got = append(s.got, d)
	return ctx.Err()
}

// testClient's timeout bounds each attempt against a local server; scaled,
// so a loaded machine does not time an attempt out and retry it, which
// would change the attempts and waits the tests count.
func testClient(retries int, timeout time.Duration, s *sleeps) *Client {
	p := Policy{Provider: "prov", Timeout: testtime.Scale(timeout), Retries: retries,
		BaseDelay: 100 * time.Millisecond, MaxDelay: 400 * time.Millisecond, MaxRetryAfter: time.Minute}
	return New(p, Options{Sleep: s.sleep, Jitter: SeededJitter(7)}, nil)
}

func post(t *testing.T, c *Client, ctx context.Context, url, body string) (string, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), nil
}

// The delay doubles from BaseDelay up to MaxDelay, spread over [d/2, d).
func TestBackoffGrowsAndIsCapped(t *testing.T) {
	c := testClient(5, time.Second, &sleeps{})
	for attempt, max := range map[int]time.Duration{1: 100, 2: 200, 3: 400, 4: 400, 9: 400} {
		max *= time.Millisecond
		for range 20 {
			d := c.backoff(attempt)
			if d < max/2 || d >= max {
				t.Fatalf("backoff(%d) = %s, want in [%s, %s)", attempt, d, max/2, max)
			}
		}
	}
}

// A connection broken mid-response is retried; every attempt resends the
// same body.
func TestConnectionResetIsRetried(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if string(b) != "payload" {
			t.Errorf("attempt %d body %q", n.Load()+1, b)
		}
		if n.Add(1) == 1 {
			conn, _, err := w.(http.Hijacker).Hijack()
			if err != nil {
				t.Error(err)
				return
			}
			_, _ = conn.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"par"))
			conn.Close()
			return
		}
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	defer srv.Close()
	s := &sleeps{}
	got, err := post(t, testClient(2, time.Second, s), t.Context(), srv.URL, "payload")
	if err != nil || got != `{"ok":true}` || n.Load() != 2 || len(s.got) != 1 {
		t.Fatalf("got %q, %v after %d attempts, sleeps %v", got, err, n.Load(), s.got)
	}
}

// A 4xx other than 408/429 is not retried and names the provider's message.
func TestClientErrorIsNotRetried(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.WriteHeader(400)
		_, _ = w.Write([]byte(`{"error":{"message":"messages: bad role","type":"invalid_request_error"}}`))
	}))
	defer srv.Close()
	tr := &Trace{}
	_, err := post(t, testClient(3, time.Second, &sleeps{}), WithTrace(t.Context(), tr), srv.URL, "x")
	var e *Error
	if !errors.As(err, &e) || e.Status != 400 || n.Load() != 1 || tr.Err != e {
		t.Fatalf("err %v, %d attempts, trace %v", err, n.Load(), tr.Err)
	}
	if want := "prov: HTTP 400: messages: bad role (invalid_request_error)"; err.Error() != want {
		t.Fatalf("error %q, want %q", err, want)
	}
}

// A Retry-After beyond the policy's limit ends the call at once.
func TestRetryAfterTooLong(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(429)
		_, _ = w.Write([]byte(`{"error":"quota"}`))
	}))
	defer srv.Close()
	s := &sleeps{}
	_, err := post(t, testClient(3, time.Second, s), t.Context(), srv.URL, "x")
	if err == nil || !strings.Contains(err.Error(), "HTTP 429: quota: the server asks to retry after 1h0m0s") || len(s.got) != 0 {
		t.Fatalf("err %v, sleeps %v", err, s.got)
	}
}

func TestRetryAfterParse(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Duration{
		"": 0, "2": 2 * time.Second, "0.25": 250 * time.Millisecond, "-1": 0, "soon": 0,
		now.Add(90 * time.Second).Format(http.TimeFormat): 90 * time.Second,
		now.Add(-time.Hour).Format(http.TimeFormat):       0,
	} {
		if got := retryAfter(in, now); got != want {
			t.Errorf("retryAfter(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestErrorMessage(t *testing.T) {
	for in, want := range map[string]string{
		`{"error":{"message":"Rate limit reached","type":"requests"}}`: "Rate limit reached (requests)",
		`{"error":"model 'x' not found"}`:                              "model 'x' not found",
		`{"message":"overloaded"}`:                                     "overloaded",
		`[{"error":{"code":400,"message":"Function call is missing a thought_signature","status":"INVALID_ARGUMENT"}}]`: "Function call is missing a thought_signature (INVALID_ARGUMENT)",
		`<html>bad gateway</html>`: "<html>bad gateway</html>",
		strings.Repeat("é", 400):   strings.Repeat("é", 150) + "…",
	} {
		if got, _ := errorMessage([]byte(in)); got != want {
			t.Errorf("errorMessage(%.40q) = %.60q, want %.60q", in, got, want)
		}
	}
}

// Placeholders are replaced in order by prefix + base64; a missing one is an
// error, never a request without its image.
func TestInlineSubstitute(t *testing.T) {
	in := NewInline()
	a := in.Add("data:image/png;base64,", []byte("ab"))
	b := in.Add("", []byte("xyz"))
	got, err := in.Substitute([]byte(`{"u":"` + a + `","t":"` + a + `x","v":["` + b + `"]}`))
	if err != nil || string(got) != `{"u":"data:image/png;base64,YWI=","t":"`+a+`x","v":["eHl6"]}` {
		t.Fatalf("got %s, %v", got, err)
	}
	if _, err := in.Substitute([]byte(`{"u":"` + a + `"}`)); err == nil {
		t.Fatal("a missing image was not reported")
	}
}

// Retry-After-Ms (OpenAI) is honoured to the millisecond.
func TestRetryAfterMs(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.Header().Set("Retry-After-Ms", "250")
			w.WriteHeader(429)
			return
		}
		_, _ = w.Write([]byte(`{}`))
	}))
	defer srv.Close()
	s := &sleeps{}
	if _, err := post(t, testClient(1, time.Second, s), t.Context(), srv.URL, "x"); err != nil || len(s.got) != 1 || s.got[0] != 250*time.Millisecond {
		t.Fatalf("err %v, sleeps %v", err, s.got)
	}
}
