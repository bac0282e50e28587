package engine

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// notesShownEvents bounds the timeline a snapshot lists line by line; the
// events before them are folded into one line (see writeFolded), so a
// snapshot's size does not grow with the task.
const notesShownEvents = 12

// notesFoldedTools bounds the tools the folded line names; the rest are
// counted together.
const notesFoldedTools = 6

// TaskNotes are the working notes of one task: the goal, the current phase
// and a timeline with a brief event after each tool result. They are reset at
// task start, and each time they changed what changed is appended to
// Accumulated context (update) and the whole of them (goal, phase, bounded
// timeline) replaces the previous in the Refreshed tail (snapshot).
type TaskNotes struct {
	Goal     string      `json:"goal"`
	Phase    string      `json:"phase"`
	Timeline []NoteEvent `json:"timeline"`
	version  int
	// folded counts, by tool, the events before Timeline[foldedN]: those a
	// snapshot no longer lists line by line.
	folded  []foldCount
	foldedN int
	// What the last update stated (see update): its goal and phase, and how
	// many timeline events; sent is false before the first.
	sent                bool
	sentGoal, sentPhase string
	sentEvents          int
}

// NoteEvent is one timeline line. tool and failed are set for a tool
// result's event: a snapshot counts the events it folds by them.
type NoteEvent struct {
	Turn   int    `json:"turn"`
	Text   string `json:"text"`
	tool   string
	failed bool
}

// foldCount is how many folded events a tool has, and how many of them
// failed; other is the count of events that are not a tool result.
type foldCount struct {
	tool      string
	n, failed int
}

func (n *TaskNotes) reset(goal string) {
	*n = TaskNotes{Goal: goal, Phase: "starting", version: n.version + 1}
}

func (n *TaskNotes) setGoal(goal string) {
	n.Goal = goal
	n.version++
}

func (n *TaskNotes) setPhase(p string) {
	if n.Phase != p {
		n.Phase = p
		n.version++
	}
}

func (n *TaskNotes) add(turn int, text string) {
	n.Timeline = append(n.Timeline, NoteEvent{Turn: turn, Text: text})
	n.version++
}

// addResult adds the event of a tool result.
func (n *TaskNotes) addResult(turn int, tool string, failed bool, text string) {
	n.Timeline = append(n.Timeline, NoteEvent{Turn: turn, Text: text, tool: tool, failed: failed})
	n.version++
}

// update renders, for Accumulated context, what changed since the last
// update: the goal and the phase when they changed (both, the first time),
// then the timeline events added since, one a line. It is "" when nothing
// the model reads changed.
func (n *TaskNotes) update() string {
	var b strings.Builder
	if !n.sent || n.Goal != n.sentGoal {
		b.WriteString("\nGoal: ")
		b.WriteString(n.Goal)
	}
	if !n.sent || n.Phase != n.sentPhase {
		b.WriteString("\nPhase: ")
		b.WriteString(n.Phase)
	}
	var num [20]byte
	for _, e := range n.Timeline[min(n.sentEvents, len(n.Timeline)):] {
		b.WriteString("\n- turn ")
		b.Write(strconv.AppendInt(num[:0], int64(e.Turn), 10))
		b.WriteString(": ")
		b.WriteString(e.Text)
	}
	n.sent, n.sentGoal, n.sentPhase, n.sentEvents = true, n.Goal, n.Phase, len(n.Timeline)
	if b.Len() == 0 {
		return ""
	}
	return "Task Notes update:" + b.String()
}

// snapshot renders the whole notes for the Refreshed tail: the goal, the
// phase and the timeline, its latest notesShownEvents events one a line and
// the earlier ones folded into one line.
func (n *TaskNotes) snapshot() string {
	ev := n.Timeline
	if len(ev) > notesShownEvents {
		n.fold(len(ev) - notesShownEvents)
		ev = ev[n.foldedN:]
	}
	var b strings.Builder
	size := len("Task Notes\nGoal: \nPhase: \nTimeline: (empty)") + len(n.Goal) + len(n.Phase) + 64*len(n.folded)
	for i := range ev {
		size += len("\n- turn : ") + 6 + len(ev[i].Text)
	}
	b.Grow(size)
	b.WriteString("Task Notes\nGoal: ")
	b.WriteString(n.Goal)
	b.WriteString("\nPhase: ")
	b.WriteString(n.Phase)
	b.WriteString("\nTimeline:")
	if len(n.Timeline) == 0 {
		b.WriteString(" (empty)")
	}
	if n.foldedN > 0 {
		n.writeFolded(&b)
	}
	var num [20]byte
	for _, e := range ev {
		b.WriteString("\n- turn ")
		b.Write(strconv.AppendInt(num[:0], int64(e.Turn), 10))
		b.WriteString(": ")
		b.WriteString(e.Text)
	}
	return b.String()
}

// fold counts the events before Timeline[upTo] into folded: each event is
// counted once, when it leaves the listed part of the timeline.
func (n *TaskNotes) fold(upTo int) {
	for ; n.foldedN < upTo; n.foldedN++ {
		e := &n.Timeline[n.foldedN]
		i := slices.IndexFunc(n.folded, func(c foldCount) bool { return c.tool == e.tool })
		if i < 0 {
			n.folded = append(n.folded, foldCount{tool: e.tool})
			i = len(n.folded) - 1
		}
		n.folded[i].n++
		if e.failed {
			n.folded[i].failed++
		}
	}
	// Most frequent first; the order of equal counts is the order the
	// tools first appeared, so one snapshot reads like the next.
	slices.SortStableFunc(n.folded, func(a, b foldCount) int { return cmp.Compare(b.n, a.n) })
}

// writeFolded writes the folded events as one line: "- … 37 earlier events
// (turns 1-20): 12 navigate_to, 9 pick_up (2 failed), 3 notes". The events
// that are not a tool result count as notes, and the tools past
// notesFoldedTools count together.
func (n *TaskNotes) writeFolded(b *strings.Builder) {
	var num [20]byte
	b.WriteString("\n- … ")
	b.Write(strconv.AppendInt(num[:0], int64(n.foldedN), 10))
	b.WriteString(" earlier events (turns ")
	b.Write(strconv.AppendInt(num[:0], int64(n.Timeline[0].Turn), 10))
	b.WriteByte('-')
	b.Write(strconv.AppendInt(num[:0], int64(n.Timeline[n.foldedN-1].Turn), 10))
	b.WriteString("): ")
	written, named := false, 0
	rest, restFailed, restTools, notes := 0, 0, 0, 0
	sep := func() {
		if written {
			b.WriteString(", ")
		}
		written = true
	}
	for _, c := range n.folded {
		switch {
		case c.tool == "":
			notes = c.n
		case named < notesFoldedTools:
			sep()
			writeCount(b, c.n, c.tool, c.failed)
			named++
		default:
			rest, restFailed, restTools = rest+c.n, restFailed+c.failed, restTools+1
		}
	}
	if rest > 0 {
		sep()
		writeCount(b, rest, "by "+strconv.Itoa(restTools)+" other tools", restFailed)
	}
	if notes > 0 {
		sep()
		writeCount(b, notes, "notes", 0)
	}
}

func writeCount(b *strings.Builder, count int, what string, failed int) {
	var num [20]byte
	b.Write(strconv.AppendInt(num[:0], int64(count), 10))
	b.WriteByte(' ')
	b.WriteString(what)
	if failed > 0 {
		b.WriteString(" (")
		b.Write(strconv.AppendInt(num[:0], int64(failed), 10))
		b.WriteString(" failed)")
	}
}

func (n *TaskNotes) clone() TaskNotes {
	c := *n
	c.Timeline = append([]NoteEvent(nil), n.Timeline...)
	c.folded = slices.Clone(n.folded)
	return c
}
