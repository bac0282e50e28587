package schema

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"cuelang.org/go/cue"
)

// builtinTools are the tools a builtin toolset provides.
var builtinTools = []string{"query_user", "notify_user", "load_skill", "scene_lookup"}

// stageNames are the stages a loop may list.
var stageNames = []string{"task_notes", "observe", "scene_brief", "compact", "decide", "execute", "record"}

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

// partialSpec decodes the top-level sections that validate on their own.
func partialSpec(ctx *cue.Context, unified cue.Value) (*Spec, sections) {
	ok := sections{}
	whole := ctx.CompileString("{}")
	it, err := unified.Fields()
	if err != nil {
		return &Spec{}, ok
	}
	for it.Next() {
		v := it.Value()
		if v.Validate(cue.Concrete(true), cue.All()) != nil {
			continue
		}
		name := it.Selector().Unquoted()
		ok[name] = true
		whole = whole.FillPath(cue.MakePath(cue.Str(name)), v)
	}
	var s Spec
	if whole.Decode(&s) != nil {
		return &Spec{}, sections{}
	}
	return &s, ok
}

// crossCheck runs the checks CUE cannot express: references between
// sections, files on disk, and the expr rules.
func (l *loader) crossCheck(s *Spec, ok sections) (*Rules, bool) {
	l.spec = s
	dir := filepath.Dir(l.paths[0])
	n := len(l.diags)
	if ok.all("toolsets") {
		l.checkToolsets(s)
	}
	if ok.all("loop") {
		for i, st := range s.Loop.Stages {
			if slices.Contains(s.Loop.Stages[:i], st) {
				p := indexPath("loop.stages", i)
				l.errorf(l.valuePos(p), p, "stage %q is listed twice", st)
				continue
			}
			if !slices.Contains(stageNames, st) {
				p := indexPath("loop.stages", i)
				l.errorf(l.valuePos(p), p, "unknown stage %q%s (stages: %s)", st, suggest(st, stageNames), strings.Join(stageNames, ", "))
			}
		}
	}
	if ok.all("toolsets", "tools") {
		provided, open := providedTools(s)
		known := func(path, tool string) {
			if open || provided[tool] {
				return
			}
			l.errorf(l.valuePos(path), path, "no toolset provides the tool %q%s", tool, suggest(tool, keys(provided)))
		}
		for _, name := range sortedKeys(s.Tools) {
			known("tools."+name, name)
		}
		if ok.all("observation") && s.Observation.Tool != "" {
			known("observation.tool", s.Observation.Tool)
		}
		if ok.all("safety") && s.Safety.ClearanceTool != "" {
			known("safety.clearance_tool", s.Safety.ClearanceTool)
		}
		if ok.all("evaluator") && s.Evaluator.Evidence != "" {
			known("evaluator.evidence", s.Evaluator.Evidence)
		}
		if ok.all("tests") {
			for i, t := range s.Tests {
				known(indexPath("tests", i)+".call.tool", t.Call.Tool)
			}
		}
	}
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
		for i, h := range s.Hooks.Pre {
			p := indexPath("hooks.pre", i)
			switch {
			case h.Action == "clamp" && h.Clamp == nil:
				l.errorf(l.pos.lookup(p+".action"), p, "a clamp hook needs clamp: {arg, min, max}")
			case h.Action == "rewrite" && len(h.Rewrite) == 0:
				l.errorf(l.pos.lookup(p+".action"), p, "a rewrite hook needs rewrite: {arg: expr}")
			}
		}
		seen := map[string]bool{}
		for i, h := range s.Hooks.Pre {
			if seen[h.Name] {
				p := indexPath("hooks.pre", i) + ".name"
				l.errorf(l.valuePos(p), p, "another pre-hook is already named %q (rule tests and the run log name hooks)", h.Name)
			}
			seen[h.Name] = true
		}
		for i, h := range s.Hooks.Post {
			if h.Action == "note" && h.Note == "" {
				p := indexPath("hooks.post", i)
				l.errorf(l.pos.lookup(p+".action"), p, "a note hook needs note")
			}
		}
		for i, h := range s.Hooks.Pre {
			if h.Clamp != nil && h.Clamp.Min == "" && h.Clamp.Max == "" {
				p := indexPath("hooks.pre", i) + ".clamp"
				l.errorf(l.pos.lookup(p), p, "a clamp needs min, max or both")
			}
		}
	}
	if ok.all("skills") {
		for i, d := range s.Skills.Dirs {
			l.checkPath(dir, indexPath("skills.dirs", i), d, true)
		}
	}
	if ok.all("model") {
		l.checkScript(dir, "model", &s.Model)
	}
	if ok.all("evaluator") {
		l.checkScript(dir, "evaluator.model", s.Evaluator.Model)
	}
	if ok.all("context") {
		l.checkScript(dir, "context.compaction.compaction_model", s.Context.Compaction.CompactionModel)
	}
	if ok.all("memory") {
		l.checkScript(dir, "memory.consolidation.model", s.Memory.Consolidation.Model)
	}
	if ok.all("user") && s.User.Channel == "script" {
		if s.User.Script == "" {
			l.errorf(l.pos.lookup("user.channel"), "user", "the script channel needs script: a file of answers")
		}
		l.checkPath(dir, "user.script", s.User.Script, false)
	}
	if ok.all("run_log") {
		for i, r := range s.RunLog.Redact {
			if _, err := regexp.Compile(r); err != nil {
				p := indexPath("run_log.redact", i)
				l.errorf(l.valuePos(p), p, "bad regular expression: %v", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
			}
		}
	}
	l.checkSafety(s, ok)
	// Rules are compiled over whichever of hooks and tools is valid, so a
	// broken tools section does not hide a typo in a hook (and vice versa).
	var rules *Rules
	var errs []RuleError
	switch {
	case ok.all("hooks", "tools"):
		rules, errs = CompileRules(s)
	case ok.all("hooks"):
		hooksOnly := Spec{Hooks: s.Hooks}
		_, errs = compileRules(&hooksOnly, false)
	case ok.all("tools"):
		toolsOnly := Spec{Tools: s.Tools}
		_, errs = compileRules(&toolsOnly, false)
	}
	for _, e := range errs {
		l.errorf(l.exprPos(e), e.Path, "%s", e.Message)
	}
	return rules, len(l.diags) == n
}

// checkToolsets checks what CUE cannot say about one toolset.
func (l *loader) checkToolsets(s *Spec) {
	for _, name := range sortedKeys(s.Toolsets) {
		ts, p := s.Toolsets[name], "toolsets."+name
		switch ts.Kind {
		case "mcp":
			switch {
			case len(ts.Command) == 0 && ts.URL == "":
				l.errorf(l.pos.lookup(p), p, "an mcp toolset needs command (stdio) or url (streamable HTTP)")
			case len(ts.Command) > 0 && ts.URL != "":
				l.errorf(l.pos.lookup(p+".url"), p, "an mcp toolset has command or url, not both")
			}
			if ts.URL != "" && (ts.Cwd != "" || len(ts.Env) > 0 || len(ts.EnvPassthrough) > 0) {
				l.errorf(l.pos.lookup(p+".url"), p, "cwd, env and env_passthrough apply only to a command")
			}
		case "builtin":
			if len(ts.Command) > 0 || ts.URL != "" {
				l.errorf(l.pos.lookup(p+".kind"), p, "a builtin toolset takes no command or url")
			}
			for i, t := range ts.Tools {
				if !slices.Contains(builtinTools, t) {
					tp := indexPath(p+".tools", i)
					l.errorf(l.valuePos(tp), tp, "builtin toolsets provide no tool %q (they provide %s)", t, strings.Join(builtinTools, ", "))
				}
			}
		}
	}
}

// providedTools is the set of tools the toolsets can provide; open is true
// when an mcp toolset without an allow-list may provide anything.
func providedTools(s *Spec) (provided map[string]bool, open bool) {
	provided = map[string]bool{}
	for _, ts := range s.Toolsets {
		switch {
		case ts.Kind == "builtin" && len(ts.Tools) == 0:
			for _, t := range builtinTools {
				provided[t] = true
			}
		case len(ts.Tools) > 0:
			for _, t := range ts.Tools {
				provided[t] = true
			}
		default:
			open = true
		}
	}
	return provided, open
}

// checkScript checks that a script or replay model's file exists.
func (l *loader) checkScript(dir, path string, m *Model) {
	if m == nil || (m.Provider != "script" && m.Provider != "replay") {
		return
	}
	if m.Script == "" {
		l.errorf(l.pos.lookup(path+".provider"), path, "provider %q needs script: the file of model turns", m.Provider)
		return
	}
	l.checkPath(dir, path+".script", m.Script, false)
}

// checkPath reports a file or directory (relative to the spec's dir) that
// does not exist.
func (l *loader) checkPath(dir, path, name string, wantDir bool) {
	if name == "" {
		return
	}
	full := name
	if !filepath.IsAbs(full) {
		full = filepath.Join(dir, name)
	}
	fi, err := os.Stat(full)
	kind := "file"
	if wantDir {
		kind = "directory"
	}
	switch {
	case err != nil:
		l.errorf(l.valuePos(path), path, "%s %q does not exist (relative to the spec's directory)", kind, name)
	case wantDir && !fi.IsDir():
		l.errorf(l.valuePos(path), path, "%q is not a directory", name)
	case !wantDir && fi.IsDir():
		l.errorf(l.valuePos(path), path, "%q is a directory, not a file", name)
	}
}

// valuePos is the position of a path's value if written, else of the path.
func (l *loader) valuePos(path string) Pos {
	if p, ok := l.pos[valueKey(path)]; ok {
		return p
	}
	return l.pos.lookup(path)
}

func keys(m map[string]bool) []string { return sortedKeys(m) }

// sortedKeys lists a map's keys in order, so diagnostics come out stable.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
