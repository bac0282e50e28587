package schema

import (
	"slices"
	"strings"

	"github.com/expr-lang/expr/vm"

	"github.com/thea-harness/thea/rules"
)

// checkEvaluated warns about each tool whose contract states a
// post_condition that no post hook with action evaluate would ever judge:
// the condition then has no effect, and a call that missed it counts as a
// success. A hook would judge a tool when it has no when, when its when
// holds for the tool after a successful call, or when its when cannot be
// decided without the call (it reads the arguments or the world, or
// errors: a judging hook whose when errors still judges).
func (l *loader) checkEvaluated(s *Spec, rules *Rules) {
	var evals []int
	for i, h := range s.Hooks.Post {
		if h.Action == "evaluate" {
			evals = append(evals, i)
		}
	}
	x := StaticToolIndex(s, l.opts.Descriptors)
	for _, name := range sortedKeys(s.Tools) {
		c := s.Tools[name]
		if c.PostCondition == "" {
			continue
		}
		judged := slices.ContainsFunc(evals, func(i int) bool {
			return mayJudge(rules.Post[i].When, s.Hooks.Post[i].When, toolInfo(x, name, c))
		})
		if judged {
			continue
		}
		p := "tools." + name + ".post_condition"
		if len(evals) == 0 {
			l.warnf(l.valuePos(p), p, "no post hook has action evaluate, so this post-condition is never judged and a call that misses it counts as a success: add one under hooks.post (action: evaluate)")
			continue
		}
		l.warnf(l.valuePos(p), p, "no evaluate hook's when holds for %q (%s), so this post-condition is never judged and a call that misses it counts as a success: widen a when or add an evaluate hook",
			name, hookNames(s.Hooks.Post, evals))
	}
}

// toolInfo is what a rule reads of a contract's tool, its toolset resolved
// where the spec tells it.
func toolInfo(x ToolIndex, name string, c ToolContract) ToolInfo {
	set, tool, r := x.Resolve(name)
	if r != Found {
		set, tool = "", name
		if s, t, ok := strings.Cut(name, "."); ok {
			set, tool = s, t
		}
	}
	return ToolInfo{Name: tool, Toolset: set, Tags: c.Tags, Physical: c.Physical}
}

// mayJudge reports whether an evaluate hook with this when could judge a
// successful call of tool.
func mayJudge(when *vm.Program, src string, tool ToolInfo) bool {
	if when == nil {
		return true
	}
	// What a call alone tells (its arguments, a reading, the world) is not
	// known here: such a when may hold.
	for _, id := range []string{"args", "observation", "clearance", "readings", "turn"} {
		if rules.ReadsIdent(when, id) {
			return true
		}
	}
	if tool.Toolset == "" && strings.Contains(src, "toolset") {
		return true
	}
	out, err := rules.Run(nil, when, &CallEnv{Tool: tool, Args: map[string]any{}, Result: ResultEnv{Success: true}})
	if err != nil {
		return true
	}
	b, _ := out.(bool)
	return b
}

func hookNames(hooks []PostHook, idx []int) string {
	names := make([]string, len(idx))
	for i, j := range idx {
		names[i] = indexPath("hooks.post", j) + " " + hooks[j].Name
	}
	return strings.Join(names, ", ")
}
