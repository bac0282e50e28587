package serve

import (
	"bytes"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// The read cookie: set only for the token, HttpOnly and SameSite=Strict,
// never the token itself; it opens GET and HEAD only — a POST carrying it
// and no token is refused, as is a wrong token beside a good cookie — and
// it expires.
func TestReadCookie(t *testing.T) {
	const token = "read-cookie-test-token-0123"
	var mu sync.Mutex
	now := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	f := start(t, "", "- tool_calls: [{name: query_user, arguments: {question: \"Wait?\"}}]\n", Config{Token: token, Clock: clock})

	send := func(method, path, auth, cookie string, body []byte) *http.Response {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), method, f.base+path, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if auth != "" {
			req.Header.Set("Authorization", "Bearer "+auth)
		}
		if cookie != "" {
			req.AddCookie(&http.Cookie{Name: readCookieName, Value: cookie})
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if resp := send("POST", "/v1/auth/cookie", "", "", []byte(`{}`)); resp.StatusCode != http.StatusUnauthorized || len(resp.Cookies()) != 0 {
		t.Fatalf("a cookie without the token: %d %v", resp.StatusCode, resp.Cookies())
	}
	resp := send("POST", "/v1/auth/cookie", token, "", []byte(`{}`))
	if resp.StatusCode != 200 || len(resp.Cookies()) != 1 {
		t.Fatalf("POST /v1/auth/cookie: %d %v", resp.StatusCode, resp.Cookies())
	}
	c := resp.Cookies()[0]
	if c.Name != readCookieName || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Path != "/" ||
		c.MaxAge != int(readCookieTTL/time.Second) || strings.Contains(c.Value, token) || len(c.Value) < 40 {
		t.Errorf("the cookie: %+v", c)
	}
	for _, r := range []struct {
		method, path, auth, cookie string
		body                       []byte
		want                       int
	}{
		{"GET", "/v1/status", "", c.Value, nil, 200},
		{"HEAD", "/v1/status", "", c.Value, nil, 200},
		{"GET", "/v1/status", "", "forged", nil, 401},
		{"GET", "/v1/status", "wrong-token-0123456789", c.Value, nil, 401},
		{"POST", "/v1/tasks", "", c.Value, []byte(`{"instruction": "go"}`), 401},
		{"POST", "/v1/session/reset", "", c.Value, []byte(`{}`), 401},
		{"POST", "/v1/auth/cookie", "", c.Value, []byte(`{}`), 401},
	} {
		if got := send(r.method, r.path, r.auth, r.cookie, r.body).StatusCode; got != r.want {
			t.Errorf("%s %s with the cookie (auth %q): %d, want %d", r.method, r.path, r.auth, got, r.want)
		}
	}
	// The event stream is read with the cookie.
	id := f.submit("Wait")
	if got := send("GET", "/v1/tasks/"+itoa(id), "", c.Value, nil).StatusCode; got != 200 {
		t.Errorf("the task with the cookie: %d", got)
	}
	mu.Lock()
	now = now.Add(readCookieTTL + time.Second)
	mu.Unlock()
	if got := send("GET", "/v1/status", "", c.Value, nil).StatusCode; got != 401 {
		t.Errorf("an expired cookie: %d, want 401", got)
	}
	if code := f.do("POST", "/v1/tasks/"+itoa(id)+"/stop", nil, nil); code != http.StatusAccepted {
		t.Errorf("stop: %d", code)
	}
}

// Without a token there is nothing to trade: no cookie is set.
func TestReadCookieNotNeededOnLoopback(t *testing.T) {
	f := start(t, "", "- text: hi\n", Config{})
	var rc ReadCookie
	if code := f.do("POST", "/v1/auth/cookie", map[string]any{}, &rc); code != 200 || rc.Needed {
		t.Errorf("POST /v1/auth/cookie without a token configured: %d %+v", code, rc)
	}
}

// At most maxReadCookies are valid at once: issuing more drops the oldest.
func TestReadCookiesBounded(t *testing.T) {
	c := newReadCookies(time.Now)
	first, _ := c.issue()
	for range maxReadCookies {
		c.issue()
	}
	if len(c.expires) != maxReadCookies {
		t.Errorf("%d cookies held, want %d", len(c.expires), maxReadCookies)
	}
	req, _ := http.NewRequest("GET", "/", nil)
	req.AddCookie(&http.Cookie{Name: readCookieName, Value: first})
	if c.valid(req) {
		t.Error("the oldest cookie is still valid past the bound")
	}
}
