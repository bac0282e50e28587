//go:build linux

package serve

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
)

// stalledPost is a request's headers that declare a body never sent.
func stalledPost(token string) string {
	auth := ""
	if token != "" {
		auth = "Authorization: Bearer " + token + "\r\n"
	}
	return "POST /v1/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
		auth + "Content-Length: 60000\r\n\r\n"
}

// dialFrom connects to addr from a loopback source address (127.0.0.0/8 is
// all loopback on Linux), so one machine plays several clients.
func dialFrom(t *testing.T, addr, src string) net.Conn {
	t.Helper()
	d := net.Dialer{Timeout: testtime.Scale(time.Second)}
	if src != "" {
		d.LocalAddr = &net.TCPAddr{IP: net.ParseIP(src)}
	}
	c, err := d.DialContext(t.Context(), "tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func send(t *testing.T, c net.Conn, s string) {
	t.Helper()
	if _, err := io.WriteString(c, s); err != nil {
		t.Fatal(err)
	}
}

// closedWithin reads c until the server closes it, for at most d; it
// reports whether it was closed (EOF or reset) and what was read.
func closedWithin(t *testing.T, c net.Conn, d time.Duration) (bool, string) {
	t.Helper()
	if err := c.SetReadDeadline(time.Now().Add(d)); err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return false, string(b)
	}
	return true, string(b)
}

// answerOn reads one response from c.
func answerOn(t *testing.T, c net.Conn) *http.Response {
	t.Helper()
	if err := c.SetReadDeadline(time.Now().Add(testtime.Scale(2 * time.Second))); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body = io.NopCloser(strings.NewReader(string(b)))
	return resp
}

// A client without the token that declares a 60,000-byte body and sends
// none is answered 401 at once and dropped: the server never waits for the
// body. With the token, or on loopback without one, the body is waited for
// BodyTimeout, then the client gets 408 and is dropped.
func TestStalledBodyDropped(t *testing.T) {
	const token = "0123456789abcdef-token"
	const bodyTimeout = 300 * time.Millisecond
	for _, c := range []struct {
		name, serverToken, sent string
		want                    int
		waits                   bool
	}{
		{"no token sent", token, "", http.StatusUnauthorized, false},
		{"wrong token", token, "wrong-0123456789abcdef", http.StatusUnauthorized, false},
		{"with the token", token, token, http.StatusRequestTimeout, true},
		{"loopback without a token", "", "", http.StatusRequestTimeout, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := start(t, "", "- text: unused\n", Config{Token: c.serverToken, BodyTimeout: bodyTimeout})
			conn := dialFrom(t, f.addr(), "")
			began := time.Now()
			send(t, conn, stalledPost(c.sent))
			resp := answerOn(t, conn)
			elapsed := time.Since(began)
			if resp.StatusCode != c.want || !resp.Close {
				t.Errorf("%d (Connection: close %v), want %d and close", resp.StatusCode, resp.Close, c.want)
			}
			if c.waits && elapsed < bodyTimeout {
				t.Errorf("answered after %v, before the body timeout %v", elapsed, bodyTimeout)
			}
			if closed, rest := closedWithin(t, conn, testtime.Scale(time.Second)); !closed {
				t.Errorf("the connection is still open after the answer (read %q)", rest)
			}
			var st Status
			f.do("GET", "/v1/status", nil, &st)
			if len(st.Tasks) != 0 {
				t.Errorf("a stalled request started a task: %+v", st)
			}
		})
	}
}

// A connection that sends no headers, or only part of them, is closed
// after HeaderTimeout.
func TestHalfOpenDropped(t *testing.T) {
	const headerTimeout = 300 * time.Millisecond
	f := start(t, "", "- text: unused\n", Config{HeaderTimeout: headerTimeout})
	for _, sent := range []string{"", "GET /v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\n"} {
		began := time.Now() // before the server can start its clock
		conn := dialFrom(t, f.addr(), "")
		send(t, conn, sent)
		if closed, _ := closedWithin(t, conn, testtime.Scale(headerTimeout+time.Second)); !closed {
			t.Errorf("after sending %q: still open", sent)
		}
		if elapsed := time.Since(began); elapsed < headerTimeout {
			t.Errorf("after sending %q: closed after %v, before the header timeout", sent, elapsed)
		}
	}
}

// An event stream lasts the task however long it is: the body deadline of
// an earlier request on the same connection is lifted, and the header and
// idle timeouts do not apply to a request being served.
func TestEventStreamOutlivesTimeouts(t *testing.T) {
	const short = 100 * time.Millisecond
	f := start(t, "", `
- tool_calls: [{name: query_user, arguments: {question: "Anyone?"}}]
- text: "Answered."
`, Config{HeaderTimeout: short, BodyTimeout: short, IdleTimeout: short})
	conn := dialFrom(t, f.addr(), "")
	body := `{"instruction": "wait"}`
	send(t, conn, fmt.Sprintf("POST /v1/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body))
	rd := bufio.NewReader(conn)
	if err := conn.SetReadDeadline(time.Now().Add(testtime.Scale(2 * time.Second))); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(rd, nil)
	if err != nil || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("submit: %v %v", resp, err)
	}
	io.Copy(io.Discard, resp.Body)
	send(t, conn, "GET /v1/tasks/1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	resp, err = http.ReadResponse(rd, nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("events: %v %v", resp, err)
	}
	s := &stream{t: t, body: resp.Body, sc: bufio.NewScanner(resp.Body)}
	q := decodeAs[Pending](t, last(s.until("pending")))
	// Let every timeout pass several times over while the stream is open;
	// what is tested is that nothing happens meanwhile.
	time.Sleep(5 * short)
	if code := f.do("POST", fmt.Sprintf("/v1/questions/%d/answer", q.ID), map[string]string{"answer": "here"}, nil); code != http.StatusOK {
		t.Fatalf("answer: %d", code)
	}
	if err := conn.SetReadDeadline(time.Now().Add(testtime.Scale(2 * time.Second))); err != nil {
		t.Fatal(err)
	}
	s.rest()
}

// waitConns waits until the server holds open connections, unproven of
// them, failing after a bound.
func (f *fixture) waitConns(open, unproven int) {
	f.t.Helper()
	deadline := time.Now().Add(testtime.Scale(2 * time.Second))
	for {
		// Serve installs its limiter in its own goroutine, which may not
		// have run yet: the listener accepts connections before it does.
		f.srv.mu.Lock()
		lim := f.srv.conns
		f.srv.mu.Unlock()
		o, u := -1, -1
		if lim != nil {
			o, u = lim.counts()
		}
		if o == open && u == unproven {
			return
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("the server holds %d connections, %d unproven; want %d and %d", o, u, open, unproven)
		}
		time.Sleep(time.Millisecond)
	}
}

// At a bound the oldest stalled connection gives way, never the new one:
// per client address, among all unproven connections, and in total; a
// connection that has carried an authorized request is no longer counted
// as stalled, and the operator is always served.
func TestConnBounds(t *testing.T) {
	// 8 in total, 7 unproven, 3 unproven per client address; no timeout
	// closes a connection while the test runs, however slowly.
	f := start(t, "", "- text: unused\n", Config{MaxConns: 8, MaxConnsPerIP: 3, HeaderTimeout: time.Hour})
	stalled := func(src string) net.Conn {
		c := dialFrom(t, f.addr(), src)
		send(t, c, "GET /v1/status HTTP/1.1\r\n") // headers begun, never ended
		return c
	}
	mustClose := func(name string, c net.Conn) {
		t.Helper()
		if closed, _ := closedWithin(t, c, testtime.Scale(2*time.Second)); !closed {
			t.Fatalf("%s was not closed", name)
		}
	}
	a1, a2, a3 := stalled("127.0.0.2"), stalled("127.0.0.2"), stalled("127.0.0.2")
	f.waitConns(3, 3)
	a4 := stalled("127.0.0.2")
	mustClose("the oldest connection of 127.0.0.2 (a 4th from it)", a1)
	f.waitConns(3, 3)

	b1, _, _ := stalled("127.0.0.3"), stalled("127.0.0.3"), stalled("127.0.0.3")
	stalled("127.0.0.4")
	f.waitConns(7, 7)
	stalled("127.0.0.4") // the unproven pool is full: a2 is the oldest
	mustClose("the oldest unproven connection", a2)
	f.waitConns(7, 7)

	// The operator's new connection evicts a3, and is proven by its
	// request; a stalled connection that completes its request is too.
	var st Status
	if code := f.do("GET", "/v1/status", nil, &st); code != http.StatusOK {
		t.Fatalf("the operator's status: %d", code)
	}
	mustClose("the oldest unproven connection (for the operator)", a3)
	send(t, b1, "Host: 127.0.0.1\r\n\r\n")
	if resp := answerOn(t, b1); resp.StatusCode != http.StatusOK {
		t.Fatalf("a held connection that completes its request: %d", resp.StatusCode)
	}
	f.waitConns(7, 5) // a4, b2, b3, c1, c2 unproven; b1 and the operator proven
	stalled("127.0.0.5")
	f.waitConns(8, 6)
	stalled("127.0.0.5") // the total bound: the oldest unproven, a4, goes
	mustClose("the oldest unproven connection at the total bound", a4)
	f.waitConns(8, 6)
	if code := f.do("GET", "/v1/status", nil, &st); code != http.StatusOK {
		t.Fatalf("the operator's status on its kept-alive connection: %d", code)
	}
}

// At the total bound with no unproven connection, the proven one that has
// waited longest (idle, or stalled in its body) gives way; one being served
// (an event stream) never does, and a new connection is then refused
// instead.
func TestConnBoundsKeepServedConnections(t *testing.T) {
	f := start(t, "", `
- tool_calls: [{name: query_user, arguments: {question: "Anyone?"}}]
- text: "Answered."
`, Config{MaxConns: 2, HeaderTimeout: time.Hour, BodyTimeout: time.Hour})
	noKeepAlive := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	post := func(path, body string) int {
		t.Helper()
		req, _ := http.NewRequestWithContext(t.Context(), "POST", f.base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := noKeepAlive.Do(req)
		if err != nil {
			t.Fatalf("POST %s: %v", path, err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post("/v1/tasks", `{"instruction": "wait"}`); code != http.StatusAccepted {
		t.Fatalf("submit: %d", code)
	}
	f.waitConns(0, 0)

	// Two proven connections stalled in a body: a third client evicts the
	// older one (never answered: it is simply closed).
	b1 := dialFrom(t, f.addr(), "")
	send(t, b1, stalledPost(""))
	f.waitConns(1, 0)
	b2 := dialFrom(t, f.addr(), "")
	send(t, b2, stalledPost(""))
	f.waitConns(2, 0)
	if code := post("/v1/session/reset", ""); code != http.StatusConflict {
		t.Fatalf("the operator at the bound: %d, want 409 (a task runs)", code)
	}
	if closed, got := closedWithin(t, b1, testtime.Scale(time.Second)); !closed || got != "" {
		t.Fatalf("the older stalled body: closed %v, read %q", closed, got)
	}
	f.waitConns(1, 0) // b2 is held still; the operator's connection is gone
	b2.Close()
	f.waitConns(0, 0)

	// Two event streams fill the bound: a new connection is refused, the
	// streams go on.
	streams := []*stream{f.events(1, ""), f.events(1, "")}
	var q Pending
	for _, s := range streams {
		q = decodeAs[Pending](t, last(s.until("pending")))
	}
	f.waitConns(2, 0)
	x := dialFrom(t, f.addr(), "")
	if closed, _ := closedWithin(t, x, testtime.Scale(time.Second)); !closed {
		t.Fatal("a connection beyond the bound, with every slot served, was held")
	}
	streams[1].body.Close()
	f.waitConns(1, 0)
	if code := post(fmt.Sprintf("/v1/questions/%d/answer", q.ID), `{"answer": "here"}`); code != http.StatusOK {
		t.Fatalf("answer: %d", code)
	}
	streams[0].rest()
}

// The bounds keep to their defaults, and the total to half the open-file
// limit; an IPv6 client is counted by its /64.
func TestResolveLimits(t *testing.T) {
	for _, c := range []struct {
		cfg       Config
		fileLimit uint64
		want      limits
	}{
		{Config{}, 0, limits{total: 4096, unproven: 3584, perIP: 256}},
		{Config{}, 20000, limits{total: 4096, unproven: 3584, perIP: 256}},
		{Config{}, 1024, limits{total: 512, unproven: 448, perIP: 256}},
		{Config{MaxConns: 100000}, 20000, limits{total: 10000, unproven: 8750, perIP: 256}},
		{Config{MaxConns: 8, MaxConnsPerIP: 3}, 20000, limits{total: 8, unproven: 7, perIP: 3}},
		{Config{MaxConns: 2}, 0, limits{total: 2, unproven: 2, perIP: 2}},
	} {
		if got := resolveLimits(c.cfg, c.fileLimit); got != c.want {
			t.Errorf("resolveLimits(%+v, %d) = %+v, want %+v", c.cfg, c.fileLimit, got, c.want)
		}
	}
	for addr, want := range map[string]string{
		"10.1.2.3:80":                 "10.1.2.3",
		"[::ffff:10.1.2.3]:80":        "10.1.2.3",
		"[2001:db8:1:2:3:4:5:6]:80":   "2001:db8:1:2::",
		"[2001:db8:1:2:ffff::1]:80":   "2001:db8:1:2::",
		"[fe80::1%eth0]:80":           "fe80::",
		"[2001:db8:1:3::1]:443":       "2001:db8:1:3::",
		"127.0.0.1:1":                 "127.0.0.1",
		"[::1]:7878":                  "::",
		"[2001:db8:ffff:ffff::9]:443": "2001:db8:ffff:ffff::",
	} {
		ap := netip.MustParseAddrPort(addr)
		if got := clientKey(net.TCPAddrFromAddrPort(ap)); got.String() != want {
			t.Errorf("clientKey(%s) = %s, want %s", addr, got, want)
		}
	}
}

// RaiseFileLimit leaves the soft limit at the hard one.
func TestRaiseFileLimit(t *testing.T) {
	got, err := RaiseFileLimit()
	if err != nil {
		t.Fatal(err)
	}
	if got != openFileLimit() {
		t.Errorf("RaiseFileLimit = %d, the limit now %d", got, openFileLimit())
	}
	if _, err := os.Stat("/proc/self/limits"); err == nil && got == 0 {
		t.Error("the open-file limit is unknown on Linux")
	}
}
