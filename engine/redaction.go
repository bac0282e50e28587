package engine

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"regexp"
	"unicode/utf8"

	"github.com/thea-harness/thea/engine/redact"
	"github.com/thea-harness/thea/schema"
)

// Declared secrets leave the session through nothing: one redactor, built
// before anything else of the session, is applied once at each exit — every
// event before any sink (publish), every model request of every purpose
// before its provider sees it (recordedModel), the request `thea context`
// shows (Preview), every entry written to memory (memory.Config), and the
// error a session or a toolset fails to start with (New, StartToolset),
// which may quote a back-end's stderr.

// minSecretLen is the shortest secret value that does not shred ordinary
// text; a shorter one is still redacted, with a warning at session start.
const minSecretLen = 8

// NewRedactor builds the redactor of a session of spec: the value of every
// environment variable the spec names in a field ending in "_env"
// (schema.Spec.SecretEnv: every api_key_env, a rosbridge token_env,
// run_log.secret_env, any kind's credential field), of the variables in
// extraEnv (a host's own credentials, such as thea serve's --token-env),
// and the run_log.redact patterns. A value shorter than 8 characters is
// still a secret, with a warning to logger (nil discards), which says too
// when the value is matched only as it stands (under redact.MinEncodedLen
// bytes, its encodings are not).
func NewRedactor(spec *schema.Spec, extraEnv []string, logger *slog.Logger) (*redact.Redactor, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	var secrets []string
	for _, name := range append(spec.SecretEnv(), extraEnv...) {
		v := os.Getenv(name)
		if v == "" {
			continue
		}
		if n := utf8.RuneCountInString(v); n < minSecretLen {
			msg := "a secret is shorter than 8 characters: redacting it will also rewrite ordinary text that contains it"
			if len(v) < redact.MinEncodedLen {
				msg += ", and its base64, percent and hex encodings are not redacted"
			}
			logger.Warn(msg, "env", name, "length", n)
		}
		secrets = append(secrets, v)
	}
	var patterns []*regexp.Regexp
	for i, pat := range spec.RunLog.Redact {
		re, err := schema.CompileRedactPattern(pat)
		if err != nil {
			return nil, fmt.Errorf("run_log.redact[%d]: %w", i, err)
		}
		patterns = append(patterns, re)
	}
	return redact.New(secrets, patterns), nil
}

func (h *Harness) buildRedactor() error {
	r, err := NewRedactor(h.spec, h.opts.SecretEnv, h.log)
	if err != nil {
		return err
	}
	h.redactor = r
	return nil
}

// RedactError returns err with its message redacted: what a session or a
// toolset fails to start with may quote a back-end's stderr. errors.Is
// still sees the causes (a deadline, a cancellation); errors.As does not,
// so no cause's own fields (an exec.ExitError's stderr) can be read back.
func RedactError(r *redact.Redactor, err error) error {
	if err == nil || !r.Active() {
		return err
	}
	msg := err.Error()
	red := r.String(msg)
	if red == msg {
		return err
	}
	return &redactedError{msg: red, cause: err}
}

type redactedError struct {
	msg   string
	cause error
}

func (e *redactedError) Error() string { return e.msg }

// Is lets errors.Is see the causes without unwrapping to them.
func (e *redactedError) Is(target error) bool { return errors.Is(e.cause, target) }
