package channels

import (
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/readfile"
	"github.com/thea-harness/thea/schema"
)

// ScriptChannel is the "script" user channel: answers read from a file, for
// tests and demos.
func ScriptChannel() engine.UserChannelKind {
	return engine.UserChannelKind{
		Name: "script",
		Doc:  "answers from a file (tests, demos)",
		Validate: func(c *schema.Check) {
			u := c.Section.(schema.User)
			if u.Script == "" {
				c.ErrorfAtKey(".channel", "the script channel needs script: a file of answers")
				return
			}
			c.File(".script", u.Script, readfile.Answers)
			// Its content too, as run reads it: a problem is reported in the
			// answers file, at its line. A file run could not read is
			// reported by File already.
			path := c.Resolve(u.Script)
			b, err := readfile.Read(c.Context(), path, readfile.Answers)
			if err != nil {
				return
			}
			_, probs := ParseScript(b)
			for _, p := range probs {
				c.ErrorfInFile(".script", schema.Pos{File: path, Line: p.Line, Col: p.Col}, "%s", p.Message)
			}
		},
		New: func(cfg schema.User, dir string) (engine.UserChannel, error) {
			return LoadScript(schema.ResolvePath(dir, cfg.Script))
		},
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
