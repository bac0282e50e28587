package wire

import (
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// Options configure a Client. The zero value of every field but URL is a
// usable default.
type Options struct {
	// URL of the rosbridge server: ws:// or wss://.
	URL string
	// Header is sent with every handshake, for a deployment that puts
	// rosbridge behind a proxy asking for a token (Authorization: Bearer …).
	// Its values never appear in an error.
	Header http.Header
	// HTTPClient dials the handshake (TLS settings, proxies); nil means
	// http.DefaultClient.
	HTTPClient *http.Client

	// MaxFrameBytes bounds one WebSocket message. A larger one is read
	// to its end without being kept and counted as garbage; the socket
	// stays up (default 16 MiB).
	MaxFrameBytes int64
	// MaxMessageBytes bounds one message reassembled from fragments, and
	// also everything held for unfinished fragmented messages together
	// (default 32 MiB).
	MaxMessageBytes int
	// MaxFragments bounds the fragments of one message (default 4096).
	MaxFragments int
	// MaxPartialMessages bounds the fragmented messages being assembled at
	// once; beyond it the oldest is dropped and counted (default 8).
	MaxPartialMessages int

	// WriteTimeout bounds one frame written to the socket. A write that
	// does not finish in time means the socket is dead: it is closed and
	// reconnected (default 5s). A caller's context is checked before a
	// write, never during, so a caller giving up does not drop the socket
	// for everyone.
	WriteTimeout time.Duration
	// Backoff paces reconnection, and the first connection's retries.
	Backoff Backoff
	// FeedbackBuffer is how many action feedback messages a goal keeps
	// for a reader that falls behind; beyond it the oldest is dropped
	// (default 16).
	FeedbackBuffer int

	// OnGarbage is told of every frame the client could not use. It runs
	// on the reading goroutine: it must return quickly.
	OnGarbage func(Garbage)
	// OnStatus receives rosbridge "status" messages (older servers send
	// them for errors) that name no pending call. Same rule as OnGarbage.
	OnStatus func(Status)
	// OnDisconnect is told when the socket drops, with the reason and
	// the goals that were running on it. It runs before any reconnect
	// attempt; it must not block for long.
	OnDisconnect func(Disconnect)
	// OnReconnect runs after a new socket is up and subscriptions and
	// advertisements are restored, before any caller can see the new
	// connection as usable. It may call the Client's methods: this is the
	// place to cancel the goals that may still be running.
	OnReconnect func(Reconnect)
}

// Backoff is an exponential backoff between connection attempts.
type Backoff struct {
	Initial time.Duration // first wait (default 100ms)
	Max     time.Duration // longest wait (default 5s)
	Factor  float64       // growth per failed attempt (default 2)
}

// Defaults of Options.
const (
	DefaultMaxFrameBytes      = 16 << 20
	DefaultMaxMessageBytes    = 32 << 20
	DefaultMaxFragments       = 4096
	DefaultMaxPartialMessages = 8
	DefaultWriteTimeout       = 5 * time.Second
	DefaultFeedbackBuffer     = 16
)

// normalized returns o with defaults filled in, or why it cannot be used.
func (o Options) normalized() (Options, error) {
	u, err := url.Parse(o.URL)
	if err != nil {
		return o, fmt.Errorf("rosbridge url %q: %w", o.URL, err)
	}
	if u.Scheme != "ws" && u.Scheme != "wss" {
		return o, fmt.Errorf("rosbridge url %q: scheme must be ws or wss", o.URL)
	}
	if u.Host == "" {
		return o, fmt.Errorf("rosbridge url %q: no host", o.URL)
	}
	if o.MaxFrameBytes <= 0 {
		o.MaxFrameBytes = DefaultMaxFrameBytes
	}
	if o.MaxMessageBytes <= 0 {
		o.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if o.MaxFragments <= 0 {
		o.MaxFragments = DefaultMaxFragments
	}
	if o.MaxPartialMessages <= 0 {
		o.MaxPartialMessages = DefaultMaxPartialMessages
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = DefaultWriteTimeout
	}
	if o.FeedbackBuffer <= 0 {
		o.FeedbackBuffer = DefaultFeedbackBuffer
	}
	if o.Backoff.Initial <= 0 {
		o.Backoff.Initial = 100 * time.Millisecond
	}
	if o.Backoff.Max <= 0 {
		o.Backoff.Max = 5 * time.Second
	}
	if o.Backoff.Max < o.Backoff.Initial {
		o.Backoff.Max = o.Backoff.Initial
	}
	if o.Backoff.Factor < 1 {
		o.Backoff.Factor = 2
	}
	o.Header = o.Header.Clone()
	return o, nil
}

// next returns the wait after one that lasted d.
func (b Backoff) next(d time.Duration) time.Duration {
	if d <= 0 {
		return b.Initial
	}
	n := time.Duration(float64(d) * b.Factor)
	if n > b.Max || n <= 0 {
		return b.Max
	}
	return n
}
