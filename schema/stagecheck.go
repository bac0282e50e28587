package schema

import (
	"path/filepath"
	"slices"
	"strings"
)

// checkStages checks loop.stages against the registered stages: each listed
// once, every required stage present, and each after the stages it needs.
func (l *loader) checkStages(stages []string) {
	c := l.opts.Descriptors
	for i, st := range stages {
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
	var missing []string
	for _, name := range c.Names(KindStage) {
		if d, _ := c.Lookup(KindStage, name); d.Required && !slices.Contains(stages, name) {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		l.errorf(l.valuePos("loop.stages"), "loop.stages", "every loop needs the stages %s (missing: %s)", strings.Join(requiredStages(c), ", "), strings.Join(missing, ", "))
	}
}

func requiredStages(c *Descriptors) []string {
	var out []string
	for _, name := range c.Names(KindStage) {
		if d, _ := c.Lookup(KindStage, name); d.Required {
			out = append(out, name)
		}
	}
	return out
}

// dir is the spec's directory.
func (l *loader) dir() string {
	if len(l.paths) == 0 {
		return ""
	}
	return filepath.Dir(l.paths[0])
}
