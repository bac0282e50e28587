package call

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Error is a model call that failed for good: the last attempt's HTTP status
// and the provider's own message, or the transport failure.
type Error struct {
	Provider string
	// Status is the HTTP status of the last attempt (0: no response).
	Status int
	// Message is the provider's error message from the response body.
	Message string
	// Attempts is how many attempts were made.
	Attempts int
	// RetryAfter is what the server asked to wait (0: nothing).
	RetryAfter time.Duration
	// Timeout is set when the last attempt ran past it.
	Timeout time.Duration
	// Reset is set when the connection broke mid-attempt.
	Reset bool
	// Err is the transport or decoding error, if any.
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Provider)
	b.WriteString(": ")
	switch {
	case e.Timeout > 0:
		fmt.Fprintf(&b, "no answer within %s", e.Timeout)
	case e.Status != 0:
		fmt.Fprintf(&b, "HTTP %d", e.Status)
		if e.Message != "" {
			b.WriteString(": ")
			b.WriteString(e.Message)
		}
		if e.Err != nil {
			b.WriteString(": ")
			b.WriteString(e.Err.Error())
		}
	case e.Err != nil:
		b.WriteString(e.Err.Error())
	default:
		b.WriteString("model call failed")
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " (after %d attempts)", e.Attempts)
	}
	return b.String()
}

// Unwrap gives the transport error; a timeout unwraps to
// context.DeadlineExceeded.
func (e *Error) Unwrap() error {
	if e.Timeout > 0 && e.Err == nil {
		return context.DeadlineExceeded
	}
	return e.Err
}

// retryable: rate limits, server errors, timeouts and broken connections.
func (e *Error) retryable() bool {
	switch {
	case e.Timeout > 0, e.Reset:
		return true
	case e.Status == 408, e.Status == 429, e.Status >= 500 && e.Status <= 599:
		return true
	}
	return false
}

// errorMessage finds the provider's message in an error body: OpenAI and
// Anthropic {"error":{"message":...}}, Ollama and others {"error":"..."} or
// {"message":...}; otherwise the start of the body.
func errorMessage(b []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(b, &v) == nil {
		var inner struct {
			Message string `json:"message"`
			Type    string `json:"type"`
		}
		var s string
		switch {
		case json.Unmarshal(v.Error, &inner) == nil && inner.Message != "":
			if inner.Type != "" && !strings.Contains(inner.Message, inner.Type) {
				return inner.Message + " (" + inner.Type + ")"
			}
			return inner.Message
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			return s
		case v.Message != "":
			return v.Message
		}
	}
	s := strings.TrimSpace(string(b))
	if len(s) > 300 {
		s = s[:300]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
		s += "…"
	}
	return s
}
