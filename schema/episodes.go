package schema

import (
	"slices"
	"strings"
)

// Episodes is how thea test compares a replay with its recording, and the
// reset step thea test and thea eval run before each episode.
type Episodes struct {
	Tolerance Tolerance `json:"tolerance"`
	// Reset is nil when the spec declares none.
	Reset *Reset `json:"reset,omitempty"`
}

// Tolerance bounds how far a replayed observation or tool result may stray
// from the recorded one.
type Tolerance struct {
	// Number bounds every number not named in Fields, and the numbers
	// written in text.
	Number float64 `json:"number"`
	// Age bounds a reading's age (an observation's age_s).
	Age Duration `json:"age"`
	// Fields bounds the numbers at a dotted path ("pose.x", "clearance.*").
	Fields map[string]float64 `json:"fields,omitempty"`
}

// Reset is the step run before each episode: a tool of the session, or a
// command (exactly one of them, checked at load).
type Reset struct {
	Tool string `json:"tool,omitempty"`
	// Args names what the tool is given: "seed", "task".
	Args    []string `json:"args"`
	Command []string `json:"command,omitempty"`
	Timeout Duration `json:"timeout"`
}

// ResetTool is the reset step's tool, "" when it has none.
func (e Episodes) ResetTool() string {
	if e.Reset == nil {
		return ""
	}
	return e.Reset.Tool
}

// checkEpisodes reports a reset step that names neither or both of a tool
// and a command, and a tolerance path with an empty name.
func (l *loader) checkEpisodes(e Episodes) {
	if r := e.Reset; r != nil {
		switch {
		case r.Tool == "" && len(r.Command) == 0:
			l.errorf(l.valuePos("episodes.reset"), "episodes.reset", "a reset step needs a tool (called with {seed, task}) or a command")
		case r.Tool != "" && len(r.Command) > 0:
			l.errorf(l.valuePos("episodes.reset.command"), "episodes.reset.command", "a reset step is a tool or a command, not both: remove one")
		}
	}
	for _, f := range sortedKeys(e.Tolerance.Fields) {
		if slices.Contains(strings.Split(f, "."), "") {
			p := "episodes.tolerance.fields." + f
			l.errorf(l.pos.lookup(p), p, "%q: want a dotted path of names, such as pose.x or clearance.*", f)
		}
	}
}
