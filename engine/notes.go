package engine

import (
	"strconv"
	"strings"
)

// notesShownEvents bounds the timeline rendered into a snapshot, so a
// snapshot's size does not grow with the task.
const notesShownEvents = 12

// TaskNotes are the working notes of one task: the goal, the current phase
// and a timeline with a brief event after each tool result. They are reset at
// task start and snapshotted into Accumulated context when they change: the
// first snapshot of a task in full, each later one only what changed since
// the one before (Accumulated context keeps them all, so the model reads the
// notes as they grew without every request repeating the whole timeline).
type TaskNotes struct {
	Goal     string      `json:"goal"`
	Phase    string      `json:"phase"`
	Timeline []NoteEvent `json:"timeline"`
	version  int
	shown    notesShown
}

// notesShown is what the last snapshot of the task stated.
type notesShown struct {
	ok           bool
	goal, phase  string
	timelineSize int
}

// NoteEvent is one timeline line.
type NoteEvent struct {
	Turn int    `json:"turn"`
	Text string `json:"text"`
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

// snapshot renders the notes for Accumulated context, in full the first
// time in a task, then only their changes since the last snapshot: the goal
// and the phase when they changed, and the new timeline events.
func (n *TaskNotes) snapshot() string {
	prev := n.shown
	n.shown = notesShown{ok: true, goal: n.Goal, phase: n.Phase, timelineSize: len(n.Timeline)}
	if !prev.ok || prev.timelineSize > len(n.Timeline) {
		return n.render()
	}
	var b strings.Builder
	b.WriteString("Task Notes update:")
	if n.Goal != prev.goal {
		b.WriteString("\nGoal: " + n.Goal)
	}
	if n.Phase != prev.phase {
		b.WriteString("\nPhase: " + n.Phase)
	}
	writeTimeline(&b, n.Timeline[prev.timelineSize:])
	return b.String()
}

// writeTimeline writes at most notesShownEvents events, the latest, one a
// line, and how many it left out.
func writeTimeline(b *strings.Builder, ev []NoteEvent) {
	var num [20]byte
	if len(ev) > notesShownEvents {
		b.WriteString("\n(")
		b.Write(strconv.AppendInt(num[:0], int64(len(ev)-notesShownEvents), 10))
		b.WriteString(" earlier events)")
		ev = ev[len(ev)-notesShownEvents:]
	}
	for _, e := range ev {
		b.WriteString("\n- turn ")
		b.Write(strconv.AppendInt(num[:0], int64(e.Turn), 10))
		b.WriteString(": ")
		b.WriteString(e.Text)
	}
}

func (n *TaskNotes) render() string {
	var b strings.Builder
	b.WriteString("Task Notes\nGoal: ")
	b.WriteString(n.Goal)
	b.WriteString("\nPhase: ")
	b.WriteString(n.Phase)
	b.WriteString("\nTimeline:")
	if len(n.Timeline) == 0 {
		b.WriteString(" (empty)")
	}
	writeTimeline(&b, n.Timeline)
	return b.String()
}

func (n *TaskNotes) clone() TaskNotes {
	c := *n
	c.Timeline = append([]NoteEvent(nil), n.Timeline...)
	return c
}
