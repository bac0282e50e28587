package serve

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"sync"
	"time"
)

// A browser cannot put the bearer token on what it fetches by itself: an
// EventSource, an <img>, a link to the run's report. So a page that holds
// the token (in sessionStorage) trades it, with a POST carrying it, for a
// read cookie: a random value that is not the token, HttpOnly (no script
// reads it), SameSite=Strict (no other site's page sends it) and valid for
// GET and HEAD only. Every POST still needs the token itself, so a request
// another page makes the browser send can read nothing (no CORS is ever
// granted) and change nothing. The token never travels in a URL, where logs
// and the browser's history keep it.

// readCookieName is the cookie's name.
const readCookieName = "thea_read"

// Read cookies live readCookieTTL; at most maxReadCookies are valid at once
// (the oldest is dropped), so issuing them cannot grow the server.
const (
	readCookieTTL  = 12 * time.Hour
	maxReadCookies = 64
)

// readCookies are the read cookies issued, by the SHA-256 of their value
// (a lookup by hash tells nothing about the values held).
type readCookies struct {
	mu      sync.Mutex
	expires map[[32]byte]time.Time
	order   [][32]byte // issue order, oldest first
	clock   func() time.Time
}

func newReadCookies(clock func() time.Time) *readCookies {
	return &readCookies{expires: map[[32]byte]time.Time{}, clock: clock}
}

// issue makes a new cookie value.
func (c *readCookies) issue() (string, time.Time) {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // never fails (crypto/rand panics rather)
	v := base64.RawURLEncoding.EncodeToString(b)
	now := c.clock()
	exp := now.Add(readCookieTTL)
	c.mu.Lock()
	defer c.mu.Unlock()
	h := sha256.Sum256([]byte(v))
	c.expires[h] = exp
	c.order = append(c.order, h)
	for len(c.order) > maxReadCookies || (len(c.order) > 0 && !c.expires[c.order[0]].After(now)) {
		delete(c.expires, c.order[0])
		c.order = c.order[1:]
	}
	return v, exp
}

// valid reports whether the request carries a live read cookie.
func (c *readCookies) valid(r *http.Request) bool {
	ck, err := r.Cookie(readCookieName)
	if err != nil || ck.Value == "" {
		return false
	}
	h := sha256.Sum256([]byte(ck.Value))
	c.mu.Lock()
	defer c.mu.Unlock()
	exp, ok := c.expires[h]
	return ok && exp.After(c.clock())
}

// ReadCookie is the answer to POST /v1/auth/cookie.
type ReadCookie struct {
	// Needed is false when the server has no token: every request on
	// loopback is answered without one, and no cookie is set.
	Needed  bool       `json:"needed"`
	Expires *time.Time `json:"expires,omitempty"`
}

// handleReadCookie sets a read cookie for a client that proved the token
// (requireToken ran before it).
func (s *Server) handleReadCookie(w http.ResponseWriter, r *http.Request) {
	var body struct{}
	if !decodeBody(w, r, &body, true) {
		return
	}
	if s.cfg.Token == "" {
		writeJSON(w, http.StatusOK, ReadCookie{Needed: false})
		return
	}
	v, exp := s.cookies.issue()
	http.SetCookie(w, &http.Cookie{Name: readCookieName, Value: v, Path: "/", MaxAge: int(readCookieTTL / time.Second),
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	writeJSON(w, http.StatusOK, ReadCookie{Needed: true, Expires: &exp})
}
