package engine

import (
	"fmt"
	"regexp"
	"unicode/utf8"

	"github.com/thea-harness/thea/engine/redact"
	"github.com/thea-harness/thea/schema"
)

// Declared secrets leave the session through nothing: one redactor, built
// before anything else of the session, is applied once at each exit — every
// event before any sink (publish), every model request of every purpose
// before its provider sees it (recordedModel), the request `thea context`
// shows (Preview), and every entry written to memory (memory.Config).

// minSecretLen is the shortest secret value that does not shred ordinary
// text; a shorter one is still redacted, with a warning at session start.
const minSecretLen = 8

// buildRedactor builds the session's redactor: the values of every
// api_key_env variable named in the spec (the acting model's, the
// evaluator's, the compaction and the consolidation models'), of every
// run_log.secret_env variable, and the run_log.redact patterns.
func (h *Harness) buildRedactor() error {
	var names []string
	for _, m := range []*schema.Model{&h.spec.Model, h.spec.Evaluator.Model, h.spec.Context.Compaction.CompactionModel, h.spec.Memory.Consolidation.Model} {
		if m != nil && m.APIKeyEnv != "" {
			names = append(names, m.APIKeyEnv)
		}
	}
	names = append(names, h.spec.RunLog.SecretEnv...)
	var secrets []string
	for _, name := range names {
		v := h.readEnv(name)
		if v == "" {
			continue
		}
		if n := utf8.RuneCountInString(v); n < minSecretLen {
			h.log.Warn("a secret is shorter than 8 characters: redacting it will also rewrite ordinary text that contains it",
				"env", name, "length", n)
		}
		secrets = append(secrets, v)
	}
	var patterns []*regexp.Regexp
	for i, pat := range h.spec.RunLog.Redact {
		re, err := schema.CompileRedactPattern(pat)
		if err != nil {
			return fmt.Errorf("run_log.redact[%d]: %w", i, err)
		}
		patterns = append(patterns, re)
	}
	h.redactor = redact.New(secrets, patterns)
	return nil
}
