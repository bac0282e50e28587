package serve

import (
	"crypto/subtle"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"
)

// MinTokenLen is the shortest bearer token accepted: a short token on a
// network port is guessable.
const MinTokenLen = 16

// IsLoopback reports whether a listen address (host:port) binds only the
// loopback interface. An empty host, an unspecified address (0.0.0.0, ::)
// and any host name but "localhost" bind, or may resolve, elsewhere.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	return ip.WithZone("").IsLoopback()
}

// CheckBind refuses a listen address off loopback without a token, and a
// token too short to be one. It is checked before listening and again on
// the listener's actual address.
func CheckBind(addr, token string) error {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return fmt.Errorf("listen address %q: want host:port: %w", addr, err)
	}
	if token != "" && len(token) < MinTokenLen {
		return fmt.Errorf("the bearer token is %d characters; at least %d are required", len(token), MinTokenLen)
	}
	if token == "" && !IsLoopback(addr) {
		return fmt.Errorf("refusing to serve on %s without a bearer token: it is not a loopback address "+
			"(set one in the environment variable named by --token-env, or bind 127.0.0.1)", addr)
	}
	return nil
}

// requireToken wraps h so every request must carry "Authorization: Bearer
// TOKEN" — or, for GET and HEAD only, a live read cookie (see
// readcookie.go); an empty token lets every request through (loopback
// only). It runs before anything reads the body: a client without the token
// is answered and its connection closed at once, whatever it declared.
func requireToken(token string, cookies *readCookies, h http.Handler) http.Handler {
	if token == "" {
		return h
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		bearer := subtle.ConstantTimeCompare(got, want) == 1
		read := r.Method == http.MethodGet || r.Method == http.MethodHead
		if !bearer && !(read && len(got) == 0 && cookies.valid(r)) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="thea"`)
			refuse(w, http.StatusUnauthorized, "missing or wrong bearer token (Authorization: Bearer ...)")
			return
		}
		h.ServeHTTP(w, r)
	})
}

// browserGuard refuses what a web page in the operator's browser could send
// to a server on their machine. Every POST must be application/json, which
// no cross-site form can send without a CORS preflight (which this server
// never grants). Without a token, the Host must be a loopback name, so a
// DNS-rebinding page cannot drive the robot or read its events.
func browserGuard(token string, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token == "" && !IsLoopback(hostPort(r.Host)) {
			refuse(w, http.StatusForbidden, fmt.Sprintf("Host %q is not a loopback name; without a token this server answers only "+
				"requests addressed to 127.0.0.1, [::1] or localhost", r.Host))
			return
		}
		if r.Method == http.MethodPost {
			mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
			if err != nil || mt != "application/json" {
				refuse(w, http.StatusUnsupportedMediaType, "POST requests must have Content-Type: application/json")
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// refuse answers a request the server will not serve and closes the
// connection without reading its body. Both matter: net/http otherwise
// drains up to 256 KiB of an unread body before it writes the answer, and
// again when the request ends, so a client that declares a Content-Length
// and sends nothing would hold the connection for ever.
func refuse(w http.ResponseWriter, code int, msg string) {
	// A deadline in the past fails every later read at once. The error
	// only says the writer is not a connection's (a test recorder).
	_ = http.NewResponseController(w).SetReadDeadline(time.Unix(1, 0))
	w.Header().Set("Connection", "close")
	writeError(w, code, msg)
}

// hostPort gives a Host header a port when it has none, for IsLoopback.
func hostPort(host string) string {
	if _, _, err := net.SplitHostPort(host); err == nil {
		return host
	}
	if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		return host + ":80"
	}
	return net.JoinHostPort(host, "80")
}
