package scenegraph

import "strconv"

// The graph counts turns on the session's clock (staleness spans tasks),
// but a request shows one clock, the task's: the Observation header and
// the Task Notes number the task's turns from 1. So every turn the graph
// renders is the task's ("t3": turn 3 of this task), and a fact from an
// earlier task says which ("task 1"), never a number that reads as a turn
// of this one.

// epoch is a task of the session: its turns are the session's turns
// after base.
type epoch struct{ task, base int }

// BeginTask starts task n, whose turn 1 is the session's turn clock+1.
// A task of the same or a higher number begun before (a preview, whose
// task is then run) is replaced.
func (g *Graph) BeginTask(n, clock int) {
	for len(g.epochs) > 0 && g.epochs[len(g.epochs)-1].task >= n {
		g.epochs = g.epochs[:len(g.epochs)-1]
	}
	g.epochs = append(g.epochs, epoch{task: n, base: clock})
	// Every cached line may name a turn of the task that ended.
	g.clockEpoch++
}

// taskTurn is a session turn as the current task shows it: the task's turn
// (current), or the earlier task it belongs to. A graph no task has begun
// on (a test's) shows the session's turns.
func (g *Graph) taskTurn(turn int) (task, t int, current bool) {
	if len(g.epochs) == 0 {
		return 0, turn, true
	}
	cur := g.epochs[len(g.epochs)-1]
	if turn > cur.base {
		return cur.task, turn - cur.base, true
	}
	for i := len(g.epochs) - 2; i >= 0; i-- {
		if turn > g.epochs[i].base {
			return g.epochs[i].task, 0, false
		}
	}
	// Before the first task began: the session's start.
	return 0, 0, false
}

// appendTurn appends a turn as a stamp shows it: "t3", or "task 1" for an
// earlier task's ("before this session's tasks" before any).
func (g *Graph) appendTurn(b []byte, turn int) []byte {
	task, t, current := g.taskTurn(turn)
	switch {
	case current:
		b = append(b, 't')
		return strconv.AppendInt(b, int64(t), 10)
	case task > 0:
		b = append(b, "task "...)
		return strconv.AppendInt(b, int64(task), 10)
	}
	return append(b, "before task 1"...)
}

// appendSince appends the turn a mark dates from: "turn 3" of this task,
// or "task 1".
func (g *Graph) appendSince(b []byte, turn int) []byte {
	if _, t, current := g.taskTurn(turn); current {
		b = append(b, "turn "...)
		return strconv.AppendInt(b, int64(t), 10)
	}
	return g.appendTurn(b, turn)
}

// TaskTurn is the graph's clock as the current task counts it.
func (g *Graph) TaskTurn() int {
	_, t, _ := g.taskTurn(g.turn)
	return t
}

// short renders a source as "observe/head t5" or "pick_up ✓ t4", and a
// source of an earlier task as "observe/head, task 1".
func (g *Graph) short(s Source) string { return string(g.appendShort(nil, s)) }

func (g *Graph) appendShort(b []byte, s Source) []byte {
	if s.Kind == "" {
		return b
	}
	b = append(b, s.Tool...)
	if s.Kind == "call" {
		b = append(b, " ✓"...)
	} else if s.Camera != "" {
		b = append(b, '/')
		b = append(b, s.Camera...)
	}
	if _, _, current := g.taskTurn(s.Turn); current {
		b = append(b, ' ')
	} else {
		b = append(b, ", "...)
	}
	return g.appendTurn(b, s.Turn)
}

// shown is a source as a tool's result shows it: its turn the task's, or
// 0 with Task set for an earlier task's.
func (g *Graph) shown(s Source) Source {
	if s.Kind == "" {
		return s
	}
	task, t, current := g.taskTurn(s.Turn)
	s.Turn = t
	if !current {
		s.Task = task
	}
	return s
}
