package engine

import (
	"bytes"
	"maps"
	"slices"
	"strings"

	"github.com/thea-harness/thea/internal/anyjson"
	"github.com/thea-harness/thea/runlog"
)

// argChange is one argument a pre-hook changed before the call ran: what
// the model asked, what the tool was sent, and the rule that changed it.
type argChange struct {
	hook, action, arg string
	asked, sent       string // JSON; asked is "" when the model did not give it
	reason            string // the hook's reason in the spec; may be ""
}

// hookValueChars bounds one value as a change states it.
const hookValueChars = 64

// argChanges lists the arguments the pre-hooks' rewrites and clamps
// changed, in chain order; a clamp within bounds changed nothing.
func (h *Harness) argChanges(ds []runlog.Decision) []argChange {
	var out []argChange
	for _, d := range ds {
		if d.Decision != runlog.DecisionRewrite && d.Decision != runlog.DecisionClamp {
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(d.After)) {
			sent, err := anyjson.Marshal(d.After[k])
			if err != nil {
				sent = []byte("(a value that cannot be shown)")
			}
			c := argChange{hook: d.Hook, action: string(d.Decision), arg: k, sent: oneLine(string(sent), hookValueChars)}
			if v, ok := d.Before[k]; ok {
				asked, err := anyjson.Marshal(v)
				if err == nil && bytes.Equal(asked, sent) {
					continue
				}
				c.asked = oneLine(string(asked), hookValueChars)
			}
			for i := range h.spec.Hooks.Pre {
				if ph := &h.spec.Hooks.Pre[i]; ph.Name == d.Hook {
					c.reason = oneLine(ph.Reason, 160)
					break
				}
			}
			out = append(out, c)
		}
	}
	return out
}

// from is the value the model asked for, as a change states it.
func (c argChange) from() string {
	if c.asked == "" {
		return "(not given)"
	}
	return c.asked
}

// harnessLine is what the model reads before the result of a call whose
// arguments the hooks changed: what was asked, what was sent, by which
// hook and why. It is its own line, so the result after it stays one
// JSON object.
func harnessLine(tool string, cs []argChange) string {
	if len(cs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("harness: ")
	b.WriteString(tool)
	b.WriteString(" ran with arguments changed by its hooks: ")
	for i, c := range cs {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(c.arg + " " + c.from() + " → " + c.sent + " by " + c.action + " hook " + c.hook)
		if c.reason != "" {
			b.WriteString(" (" + c.reason + ")")
		}
	}
	b.WriteString(". The result below is of the call as sent.")
	return b.String()
}

// notesChanges is the Task Notes form of the changes, after a result's
// outcome: " (clamped distance_m 3 → 1 by clamp_translation)".
func notesChanges(cs []argChange) string {
	if len(cs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(" (")
	for i, c := range cs {
		if i > 0 {
			b.WriteString("; ")
		}
		verb := "rewrote "
		if c.action == string(runlog.DecisionClamp) {
			verb = "clamped "
		}
		b.WriteString(verb + c.arg + " " + c.from() + " → " + c.sent + " by " + c.hook)
	}
	b.WriteByte(')')
	return b.String()
}

// hooksChanging names the hooks that rewrote or clamped a call.
func hooksChanging(ds []runlog.Decision) string {
	var names []string
	for _, d := range ds {
		if (d.Decision == runlog.DecisionRewrite || d.Decision == runlog.DecisionClamp) && !slices.Contains(names, d.Hook) {
			names = append(names, d.Hook)
		}
	}
	return strings.Join(names, ", ")
}
