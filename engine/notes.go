package engine

import (
	"fmt"
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
	ev := n.Timeline[prev.timelineSize:]
	if len(ev) > notesShownEvents {
		fmt.Fprintf(&b, "\n(%d earlier events)", len(ev)-notesShownEvents)
		ev = ev[len(ev)-notesShownEvents:]
	}
	for _, e := range ev {
		fmt.Fprintf(&b, "\n- turn %d: %s", e.Turn, e.Text)
	}
	return b.String()
}

func (n *TaskNotes) render() string {
	var b strings.Builder
	b.WriteString("Task Notes\nGoal: ")
	b.WriteString(n.Goal)
	b.WriteString("\nPhase: ")
	b.WriteString(n.Phase)
	b.WriteString("\nTimeline:")
	ev := n.Timeline
	if len(ev) > notesShownEvents {
		fmt.Fprintf(&b, "\n(%d earlier events)", len(ev)-notesShownEvents)
		ev = ev[len(ev)-notesShownEvents:]
	}
	if len(ev) == 0 {
		b.WriteString(" (empty)")
	}
	for _, e := range ev {
		fmt.Fprintf(&b, "\n- turn %d: %s", e.Turn, e.Text)
	}
	return b.String()
}

func (n *TaskNotes) clone() TaskNotes {
	c := *n
	c.Timeline = append([]NoteEvent(nil), n.Timeline...)
	return c
}
