package serve

import (
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
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
// TOKEN"; an empty token lets every request through (loopback only).
func requireToken(token string, h http.Handler) http.Handler {
	if token == "" {
		return h
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got := []byte(r.Header.Get("Authorization"))
		if subtle.ConstantTimeCompare(got, want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="thea"`)
			writeError(w, http.StatusUnauthorized, "missing or wrong bearer token (Authorization: Bearer ...)")
			return
		}
		h.ServeHTTP(w, r)
	})
}
