package schema

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"cuelang.org/go/cue"

	"github.com/thea-harness/thea/internal/readfile"
)

// sections says which top-level sections of a spec are valid on their own;
// cross-checks run only over valid sections so one error does not cascade.
type sections map[string]bool

func (s sections) all(names ...string) bool {
	for _, n := range names {
		if !s[n] {
			return false
		}
	}
	return true
}

// someToolsets marks a toolsets section that is not valid as a whole but
// has toolsets valid on their own: each is still checked by its kind.
const someToolsets = "toolsets (the valid ones)"

// partialSpec decodes the top-level sections that validate on their own,
// and the toolsets that do when their section does not.
func partialSpec(ctx *cue.Context, unified cue.Value) (*Spec, sections) {
	ok := sections{}
	whole := ctx.CompileString("{}")
	it, err := unified.Fields()
	if err != nil {
		return &Spec{}, ok
	}
	for it.Next() {
		v := it.Value()
		name := it.Selector().Unquoted()
		if v.Validate(cue.Concrete(true), cue.All()) != nil {
			if name == "toolsets" {
				if valid, any := validEntries(ctx, v); any {
					ok[someToolsets] = true
					whole = whole.FillPath(cue.MakePath(cue.Str(name)), valid)
				}
			}
			continue
		}
		ok[name] = true
		whole = whole.FillPath(cue.MakePath(cue.Str(name)), v)
	}
	var s Spec
	if whole.Decode(&s) != nil {
		return &Spec{}, sections{}
	}
	return &s, ok
}

// validEntries is the struct of v's fields that validate on their own.
func validEntries(ctx *cue.Context, v cue.Value) (cue.Value, bool) {
	out := ctx.CompileString("{}")
	found := false
	it, err := v.Fields()
	if err != nil {
		return out, false
	}
	for it.Next() {
		if it.Value().Validate(cue.Concrete(true), cue.All()) == nil {
			out = out.FillPath(cue.MakePath(it.Selector()), it.Value())
			found = true
		}
	}
	return out, found
}

// crossCheck runs the checks CUE cannot express: each component's own
// Validate, the stage order, references between sections, files on disk,
// and the expr rules.
func (l *loader) crossCheck(s *Spec, ok sections) (*Rules, bool) {
	l.spec = s
	dir := filepath.Dir(l.paths[0])
	errs0 := l.errorCount()
	if ok.all("loop") {
		s.Loop.Stages = l.checkStages(s.Loop.Stages)
	}
	// Each component checks the sections that name it, typed.
	for _, in := range s.instances() {
		top, _, _ := strings.Cut(in.path, ".")
		top, _, _ = strings.Cut(top, "[")
		if !ok[top] && (top != "toolsets" || !ok[someToolsets]) {
			continue
		}
		l.validate(in.kind, in.name, &Check{l: l, Spec: s, Path: in.path, Dir: dir, Name: in.name, section: in.section(), config: in.config()})
	}
	if ok.all("toolsets") {
		l.checkTransport(s)
	}
	if ok.all("context", "system_prompt") {
		l.checkBudget(s)
	}
	if ok.all("toolsets", "tools") {
		l.checkToolRefs(s, ok)
		l.checkArgReads(s)
		l.checkDescriptionTools(s)
		s.transportPhysical = staticPhysical(s, l.opts.Descriptors)
	}
	l.checkBody(s, ok)
	if ok.all("hooks", "tests") {
		for i, t := range s.Tests {
			if t.Expect.Hook == "" {
				continue
			}
			if !slices.ContainsFunc(s.Hooks.Pre, func(h PreHook) bool { return h.Name == t.Expect.Hook }) {
				p := indexPath("tests", i) + ".expect.hook"
				l.errorf(l.valuePos(p), p, "no pre-hook is named %q", t.Expect.Hook)
			}
		}
	}
	if ok.all("hooks") {
		seen := map[string]bool{}
		for i := range s.Hooks.Pre {
			h := &s.Hooks.Pre[i]
			p := indexPath("hooks.pre", i)
			if seen[h.Name] {
				l.errorf(l.valuePos(p+".name"), p+".name", "another pre-hook is already named %q (rule tests and the run log name hooks)", h.Name)
			}
			seen[h.Name] = true
		}
	}
	if ok.all("skills") {
		for i, d := range s.Skills.Dirs {
			l.checkDir(dir, indexPath("skills.dirs", i), d)
		}
	}
	if ok.all("episodes") {
		l.checkEpisodes(s.Episodes)
	}
	if ok.all("run_log") {
		for i, r := range s.RunLog.Redact {
			if _, err := CompileRedactPattern(r); err != nil {
				p := indexPath("run_log.redact", i)
				l.errorf(l.valuePos(p), p, "%v", err)
			}
		}
	}
	// Rules are compiled over whichever of hooks and tools is valid, so a
	// broken tools section does not hide a typo in a hook (and vice versa).
	// The body's sectors and limits are the embodiment's when it is valid;
	// a broken embodiment's names are unknown, so rules may read any of them
	// (its own error is the one to report).
	var rules *Rules
	var errs []RuleError
	body := ok.all("embodiment")
	switch {
	case ok.all("hooks", "tools"):
		rules, errs = compileRules(s, true, StaticToolIndex(s, l.opts.Descriptors), body)
	case ok.all("hooks"):
		hooksOnly := Spec{Hooks: s.Hooks, Embodiment: s.Embodiment}
		_, errs = compileRules(&hooksOnly, false, ToolIndex{}, body)
	case ok.all("tools"):
		toolsOnly := Spec{Tools: s.Tools, Embodiment: s.Embodiment}
		_, errs = compileRules(&toolsOnly, false, ToolIndex{}, body)
	}
	for _, e := range errs {
		l.errorf(l.exprPos(e), e.Path, "%s", e.Message)
	}
	if ok.all("hooks") && len(errs) == 0 {
		for _, e := range FailOpenRules(s) {
			l.warnf(l.exprPos(e), e.Path, "%s", e.Message)
		}
		if body {
			l.checkLimitsEnforced(s)
		}
	}
	if rules != nil && len(errs) == 0 {
		l.checkEvaluated(s, rules)
	}
	return rules, l.errorCount() == errs0
}

// validate runs a component's own checks on one instance, after checking
// that the build has the component at all.
func (l *loader) validate(k Kind, name string, c *Check) {
	d, ok := l.opts.Descriptors.Lookup(k, name)
	if !ok {
		field := map[Kind]string{KindToolset: ".kind", KindProvider: ".provider", KindPreAction: ".action",
			KindPostAction: ".action", KindUserChannel: ".channel"}[k]
		l.unknown(c.Path+field, k, name)
		return
	}
	if d.Validate != nil {
		d.Validate(c)
	}
}

// unknown reports a component name nothing registered.
func (l *loader) unknown(path string, k Kind, name string) {
	known := l.opts.Descriptors.Names(k)
	l.errorf(l.valuePos(path), path, "%s %q is not available in this build%s (available: %s)", k, name, suggest(name, known), strings.Join(known, ", "))
}

// errorCount counts the errors (not warnings) reported so far.
func (l *loader) errorCount() int {
	n := 0
	for _, d := range l.diags {
		if !d.Warning {
			n++
		}
	}
	return n
}

// checkPath reports a file or directory (relative to the spec's dir) that
// does not exist.
func (l *loader) checkDir(dir, path, name string) {
	if name == "" {
		return
	}
	fi, err := os.Stat(ResolvePath(dir, name))
	switch {
	case err != nil:
		l.errorf(l.valuePos(path), path, "directory %q does not exist (relative to the spec's directory)", name)
	case !fi.IsDir():
		l.errorf(l.valuePos(path), path, "%q is not a directory", name)
	}
}

// checkFile applies run's own check of a file of kind k: the one reader
// opens it without reading, so what validate accepts, run can read.
func (l *loader) checkFile(dir, path, name string, k readfile.Kind) {
	if name == "" {
		return
	}
	full := ResolvePath(dir, name)
	err := readfile.Check(full, k)
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist):
		l.errorf(l.valuePos(path), path, "file %q does not exist (relative to the spec's directory)", name)
	case errors.Is(err, readfile.ErrNotRegular):
		if fi, serr := os.Stat(full); serr == nil && fi.IsDir() {
			l.errorf(l.valuePos(path), path, "%q is a directory, not a file", name)
			return
		}
		l.errorf(l.valuePos(path), path, "%q cannot be read: %v", name, err)
	default:
		l.errorf(l.valuePos(path), path, "%q cannot be read: %v", name, err)
	}
}

// valuePos is the position of a path's value if written, else of the path.
func (l *loader) valuePos(path string) Pos {
	if p, ok := l.pos[valueKey(path)]; ok {
		return p
	}
	return l.pos.lookup(path)
}

// sortedKeys lists a map's keys in order, so diagnostics come out stable.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
