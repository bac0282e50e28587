package serve

import (
	"net"
	"net/http"
	"strings"
	"testing"
)

// Addresses are classified without listening on them.
func TestCheckBind(t *testing.T) {
	const token = "0123456789abcdef-token"
	for _, c := range []struct {
		addr     string
		loopback bool
	}{
		{"127.0.0.1:8080", true},
		{"127.9.9.9:0", true},
		{"[::1]:8080", true},
		{"localhost:8080", true},
		{"0.0.0.0:8080", false},
		{"10.1.2.3:8080", false},
		{"[::]:8080", false},
		{":8080", false},
		{"[fe80::1%eth0]:8080", false},
		{"robot.local:8080", false},
		{"[::ffff:10.1.2.3]:80", false},
	} {
		if got := IsLoopback(c.addr); got != c.loopback {
			t.Errorf("IsLoopback(%q) = %v, want %v", c.addr, got, c.loopback)
		}
		err := CheckBind(c.addr, "")
		if c.loopback && err != nil {
			t.Errorf("CheckBind(%q, no token): %v", c.addr, err)
		}
		if !c.loopback && (err == nil || !strings.Contains(err.Error(), "without a bearer token")) {
			t.Errorf("CheckBind(%q, no token) = %v, want a refusal", c.addr, err)
		}
		if err := CheckBind(c.addr, token); err != nil {
			t.Errorf("CheckBind(%q, token): %v", c.addr, err)
		}
	}
	if err := CheckBind("0.0.0.0:80", "short"); err == nil || !strings.Contains(err.Error(), "at least 16") {
		t.Errorf("short token accepted: %v", err)
	}
	if err := CheckBind("nonsense", ""); err == nil {
		t.Error("an address without a port was accepted")
	}
}

// With a token, every route refuses a request without it or with another.
func TestBearerToken(t *testing.T) {
	const token = "0123456789abcdef-token"
	f := start(t, "", "- text: hi\n", Config{Token: token})
	for _, r := range New(Config{}).routes() {
		path := strings.ReplaceAll(r.path, "{id}", "1")
		for _, auth := range []string{"", "Bearer wrong-token-0123456789", "Basic " + token, "Bearer " + token + "x"} {
			req, _ := http.NewRequestWithContext(t.Context(), r.method, f.base+path, nil)
			if auth != "" {
				req.Header.Set("Authorization", auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("%s %s with %q: %d, want 401", r.method, path, auth, resp.StatusCode)
			}
		}
	}
	var st Status
	if code := f.do("GET", "/v1/status", nil, &st); code != http.StatusOK {
		t.Errorf("with the token: %d", code)
	}
}

// Serve checks the listener's actual address too.
func TestServeRefusesListenerWithoutToken(t *testing.T) {
	ln := fakeAddrListener{addr: &net.TCPAddr{IP: net.IPv4(10, 1, 2, 3), Port: 80}}
	sess := &closeCounter{}
	err := New(Config{}).Serve(t.Context(), &ln, sessionCloser{sess})
	if err == nil || !strings.Contains(err.Error(), "without a bearer token") {
		t.Fatalf("Serve on 10.1.2.3 without a token: %v", err)
	}
	if !ln.closed {
		t.Error("the listener was not closed")
	}
}

// fakeAddrListener claims an address it never listens on.
type fakeAddrListener struct {
	addr   net.Addr
	closed bool
}

func (l *fakeAddrListener) Accept() (net.Conn, error) { return nil, net.ErrClosed }
func (l *fakeAddrListener) Close() error              { l.closed = true; return nil }
func (l *fakeAddrListener) Addr() net.Addr            { return l.addr }

// sessionCloser is a session that must not be run, only closed.
type sessionCloser struct{ *closeCounter }

func (s sessionCloser) Close() error { s.closed.Add(1); return nil }

// What a web page could make the operator's browser send is refused: a
// POST that is not JSON (a cross-site form), and, without a token, a
// request for a Host that is not a loopback name (DNS rebinding).
func TestBrowserGuard(t *testing.T) {
	f := start(t, "", "- text: hi\n", Config{})
	send := func(method, path, ctype, host string) int {
		req, _ := http.NewRequestWithContext(t.Context(), method, f.base+path, strings.NewReader(`{"instruction":"drive"}`))
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, c := range []struct {
		method, path, ctype, host string
		want                      int
	}{
		{"POST", "/v1/tasks", "text/plain", "", http.StatusUnsupportedMediaType},
		{"POST", "/v1/tasks", "application/x-www-form-urlencoded", "", http.StatusUnsupportedMediaType},
		{"POST", "/v1/session/reset", "", "", http.StatusUnsupportedMediaType},
		{"GET", "/v1/status", "", "attacker.example:7878", http.StatusForbidden},
		{"GET", "/v1/tasks/1/events", "", "attacker.example", http.StatusForbidden},
		{"POST", "/v1/tasks", "application/json", "10.0.0.5:7878", http.StatusForbidden},
		{"GET", "/v1/status", "", "localhost:7878", http.StatusOK},
		{"GET", "/v1/status", "", "[::1]:7878", http.StatusOK},
		{"POST", "/v1/session/reset", "application/json; charset=utf-8", "", http.StatusOK},
	} {
		if got := send(c.method, c.path, c.ctype, c.host); got != c.want {
			t.Errorf("%s %s (Content-Type %q, Host %q): %d, want %d", c.method, c.path, c.ctype, c.host, got, c.want)
		}
	}
	var st Status
	f.do("GET", "/v1/status", nil, &st)
	if len(st.Tasks) != 0 {
		t.Errorf("a refused request started a task: %+v", st)
	}
}
