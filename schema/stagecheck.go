package schema

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// FixedTurn is the engine's own part of every turn, in order: decide (the
// model call), execute (pre-hooks, the tool, post-hooks, effects) and
// record. It runs after the context stages and is no spec setting; a
// loop.stages that still lists these names loads with a warning.
func FixedTurn() []string { return []string{"decide", "execute", "record"} }

// checkStages checks loop.stages against the registered context stages:
// each listed once and after the stages it needs; the fixed turn's names
// are dropped from the plan with a warning; a stage the spec's own
// sections need but loop.stages leaves out or misorders is a warning. It
// returns the stages the plan keeps.
func (l *loader) checkStages(stages []string) []string {
	c := l.opts.Descriptors
	var kept, retired []string
	firstRetired := -1
	for i, st := range stages {
		if slices.Contains(FixedTurn(), st) {
			if firstRetired < 0 {
				firstRetired = i
			}
			if !slices.Contains(retired, st) {
				retired = append(retired, st)
			}
			continue
		}
		kept = append(kept, st)
	}
	if firstRetired >= 0 {
		p := indexPath("loop.stages", firstRetired)
		l.warnf(l.valuePos(p), p, "%s %s the engine's fixed turn, which always runs after the context stages: %s ignored here and can be removed",
			quoteJoin(retired), plainPlural(len(retired), "is", "are"), plainPlural(len(retired), "it is", "they are"))
	}
	for i, st := range stages {
		if slices.Contains(FixedTurn(), st) {
			continue
		}
		p := indexPath("loop.stages", i)
		if slices.Contains(stages[:i], st) {
			l.errorf(l.valuePos(p), p, "stage %q is listed twice", st)
			continue
		}
		d, ok := c.Lookup(KindStage, st)
		if !ok {
			l.unknown(p, KindStage, st)
			continue
		}
		for _, before := range d.After {
			if j := slices.Index(stages, before); j > i {
				l.errorf(l.valuePos(p), p, "stage %q must run after %q, which is listed later (loop.stages[%d]); move %q before it", st, before, j, before)
			}
		}
		if d.Validate != nil {
			d.Validate(&Check{l: l, Spec: l.spec, Path: p, Dir: l.dir(), Name: st})
		}
	}
	l.checkNeededStages(stages)
	return kept
}

// checkNeededStages warns about each context stage the spec's own sections
// need (the stage's descriptor says which) that loop.stages leaves out, or
// lists after a stage it should precede.
func (l *loader) checkNeededStages(stages []string) {
	c := l.opts.Descriptors
	for _, name := range c.Names(KindStage) {
		d, _ := c.Lookup(KindStage, name)
		if d.Needed == nil {
			continue
		}
		path, why := d.Needed(l.spec)
		if why == "" {
			continue
		}
		i := slices.Index(stages, name)
		if i < 0 {
			l.warnf(l.valuePos("loop.stages"), "loop.stages", "leaves out %q, but %s (%s), which has no effect without it: add %q",
				name, why, path, name)
			continue
		}
		for _, later := range d.Before {
			if j := slices.Index(stages, later); j >= 0 && j < i {
				p := indexPath("loop.stages", i)
				l.warnf(l.valuePos(p), p, "stage %q runs after %q (loop.stages[%d]), but %s (%s): list %q before %q",
					name, later, j, why, path, name, later)
			}
		}
	}
}

// quoteJoin writes "a", "b" and "c".
func quoteJoin(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

func plainPlural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// dir is the spec's directory.
func (l *loader) dir() string {
	if len(l.paths) == 0 {
		return ""
	}
	return filepath.Dir(l.paths[0])
}
