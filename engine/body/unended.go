package body

import (
	"fmt"
	"time"

	"github.com/thea-harness/thea/engine"
)

// unended is a physical motion whose end the robot never reported: its
// caller gave up, the stop path ran, and its back-end was killed with no
// reply. A stop's "success" is the stop's word, not the robot's, so until
// the robot reports the motion's end (engine.BackendEnv.MotionEnded) or an
// operator clears it, the body is uncertain and no observation clears it:
// an observation shows where the robot is, not that it stopped.
type unended struct {
	key     *engine.Motion
	toolset string
	tool    string
	what    string // "timed out", "was cancelled"
	since   time.Time
	stop    string // what the stop path did, in a clause
}

// reason says why physical calls are refused while u holds.
func (u *unended) reason() string {
	return fmt.Sprintf("the robot's state is uncertain: the previous motion %s %s on the %s back-end at %s and never reported an end: %s, and its back-end was killed without a reply, so the robot may still be moving. "+
		"Physical calls are refused until the robot reports that motion's end or an operator clears it; an observation does not clear it. Other calls still run: observe, or tell the user",
		u.tool, u.what, u.toolset, u.since.Format(time.TimeOnly), u.stop)
}

// refusal is the reason a physical call to tool is refused while u holds.
func (u *unended) refusal(tool string) string { return tool + " did not run: " + u.reason() }

// Unended records that m was killed without its end being reported:
// physical calls in its scope are refused until EndReported or Clear. It
// reports false when the robot already reported m's end (while its kill
// was under way), so there is nothing to record.
func (m *Motion) Unended(stop string) bool {
	b := m.body
	b.mu.Lock()
	defer b.mu.Unlock()
	if m.endReported {
		return false
	}
	what := m.abandoned
	if what == "" {
		what = "was given up"
	}
	b.state(m.scope).unended = &unended{key: &m.Motion, toolset: m.Toolset, tool: m.Tool, what: what, since: time.Now(), stop: stop}
	return true
}

// EndReported is the robot's report that the motion keyed by key ended
// after all: its scope is no longer held by it. The body stays uncertain
// until a well-formed observation taken from now on (the robot may have
// moved until now), or an operator clear. It reports whether key was an
// unended motion.
func (b *Body) EndReported(key *engine.Motion) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	found := false
	for _, s := range b.scopes {
		if s.unended != nil && s.unended.key == key {
			s.unended, s.lastEnd = nil, time.Now()
			found = true
		}
		// The report may come while the kill is still under way.
		if m := s.motion; m != nil && &m.Motion == key {
			m.endReported = true
			found = true
		}
	}
	return found
}

// motionEnded is the transport's MotionEnded: the body's part, then an
// event saying what the robot reported.
func (ts *Toolset) motionEnded(key *engine.Motion, how string) {
	if key == nil || !ts.body.EndReported(key) {
		return
	}
	ts.logger.Info("a given-up motion reported its end", "tool", key.Tool, "how", how)
	ts.emit(engine.SafetyEvent{Kind: SafetyEndReported, Tool: key.Tool, After: time.Since(key.Start),
		Text: fmt.Sprintf("%s reported its end after all (%s): a well-formed observation taken from now on clears the body's uncertainty", key.Tool, how)})
}
