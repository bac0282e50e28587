package call

import (
	"bytes"
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
	// Param is the request field the provider named as the problem
	// (OpenAI's error.param, the path Anthropic's message starts with).
	Param string
	// Hint says what to fix, in the spec's terms (a 401 names the variable
	// model.api_key_env names).
	Hint string
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
		if e.Param != "" && !strings.Contains(e.Message, e.Param) {
			fmt.Fprintf(&b, " (field %s)", e.Param)
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
	if e.Hint != "" {
		b.WriteString(" — ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

// detail is what went wrong without the provider's name, the attempt count
// or the hint: a retry's message.
func (e *Error) detail() string {
	switch {
	case e.Timeout > 0:
		return fmt.Sprintf("no answer within %s", e.Timeout)
	case e.Message != "":
		return e.Message
	case e.Err != nil:
		return e.Err.Error()
	}
	return "no message"
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
// {"message":...}; otherwise the start of the body. param is the field the
// provider blamed: OpenAI's error.param, or the field path an Anthropic
// message starts with ("tools.0.custom.name: String should match ...").
func errorMessage(b []byte) (msg, param string) {
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '[' {
		// Gemini's OpenAI-compatible endpoint wraps its error in a list.
		var list []json.RawMessage
		if json.Unmarshal(t, &list) == nil && len(list) > 0 {
			b = list[0]
		}
	}
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(b, &v) == nil {
		var inner struct {
			Message string `json:"message"`
			Type    string `json:"type"`
			Status  string `json:"status"` // Google's form of type
			Param   any    `json:"param"`
		}
		var s string
		switch {
		case json.Unmarshal(v.Error, &inner) == nil && inner.Message != "":
			param, _ = inner.Param.(string)
			if param == "" {
				param = leadingPath(inner.Message)
			}
			if inner.Type == "" {
				inner.Type = inner.Status
			}
			if inner.Type != "" && !strings.Contains(inner.Message, inner.Type) {
				return inner.Message + " (" + inner.Type + ")", param
			}
			return inner.Message, param
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			return s, ""
		case v.Message != "":
			return v.Message, leadingPath(v.Message)
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
	return s, ""
}

// leadingPath is the dotted field path a message starts with, followed by
// ": " (Anthropic's form); empty when it starts otherwise.
func leadingPath(msg string) string {
	path, _, ok := strings.Cut(msg, ": ")
	if !ok || !strings.Contains(path, ".") || len(path) > 120 {
		return ""
	}
	for _, r := range path {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("_.[]-", r)) {
			return ""
		}
	}
	return path
}

// ParamTool is the index of the tool definition a blamed field is inside
// ("tools[3].function.name" on OpenAI's wire, "tools.3.custom.name" on
// Anthropic's); false when the field is not in one.
func ParamTool(param string) (int, bool) {
	rest, ok := strings.CutPrefix(param, "tools")
	if !ok || rest == "" || (rest[0] != '[' && rest[0] != '.') {
		return 0, false
	}
	rest = rest[1:]
	n, digits := 0, 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' && digits < 6 {
		n = n*10 + int(rest[digits]-'0')
		digits++
	}
	return n, digits > 0
}
