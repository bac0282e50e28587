package channels

import (
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/readfile"
	"github.com/thea-harness/thea/schema"
)

// ScriptConfig is the script channel's own fields (schema.User.Config).
type ScriptConfig struct {
	// Script is the file of answers, relative to the spec's directory.
	Script string `json:"script,omitempty"`
}

const scriptCUE = `// The file of answers, relative to the spec's directory.
script?: #NonEmpty
`

// ScriptChannel is the "script" user channel: answers read from a file, for
// tests and demos.
func ScriptChannel() engine.UserChannelKind {
	return engine.TypedUserChannel("script", "answers from a file (tests, demos)", scriptCUE, validateScript,
		func(_ schema.User, cfg ScriptConfig, dir string) (engine.UserChannel, error) {
			return LoadScript(schema.ResolvePath(dir, cfg.Script))
		})
}

// validateScript checks the answers file as run reads it: a problem is
// reported in the file, at its line.
func validateScript(c *schema.Check, _ schema.User, cfg ScriptConfig) {
	if cfg.Script == "" {
		c.ErrorfAtKey(".channel", "the script channel needs script: a file of answers")
		return
	}
	c.File(".script", cfg.Script, readfile.Answers)
	// A file run could not read is reported by File already.
	path := c.Resolve(cfg.Script)
	b, err := readfile.Read(c.Context(), path, readfile.Answers)
	if err != nil {
		return
	}
	_, probs := ParseScript(b)
	for _, p := range probs {
		c.ErrorfInFile(".script", schema.Pos{File: path, Line: p.Line, Col: p.Col}, "%s", p.Message)
	}
}

// NoneChannel is the "none" user channel: nobody answers; notifications are
// dropped.
func NoneChannel() engine.UserChannelKind {
	return engine.UserChannelKind{
		Name: "none",
		Doc:  "no person: questions fail at once, notifications are dropped",
		New:  func(schema.User, string) (engine.UserChannel, error) { return None{}, nil },
	}
}

// TerminalChannel is the "terminal" user channel. The process has one
// terminal, shared with whatever reads instructions from it, so the caller
// builds it and every session gets that one.
func TerminalChannel(t *Terminal) engine.UserChannelKind {
	return engine.UserChannelKind{
		Name: "terminal",
		Doc:  "the person at this process's terminal",
		New:  func(schema.User, string) (engine.UserChannel, error) { return t, nil },
	}
}
