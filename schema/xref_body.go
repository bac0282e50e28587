package schema

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/thea-harness/thea/rules"
)

// checkBody checks what a body declares and what refers to it: clearance
// sector names, verifier tools, and the two forms of rule test.
func (l *loader) checkBody(s *Spec, ok sections) {
	if ok.all("embodiment") {
		seen := map[string]string{}
		reserved := rules.FieldNames(reflect.TypeFor[ClearanceEnv]())
		for i, sec := range s.Embodiment.ClearanceSectors {
			p := indexPath("embodiment.clearance_sectors", i)
			for _, n := range append([]string{sec.Name}, sec.Aliases...) {
				if slices.Contains(reserved, n) {
					l.errorf(l.valuePos(p), p, "%q cannot name a sector: rules read clearance.%s as part of every reading", n, n)
				}
				if prev, dup := seen[n]; dup {
					l.errorf(l.valuePos(p), p, "%q is already the name or an alias of the sector %q: sector names and aliases must be unique", n, prev)
				}
				seen[n] = sec.Name
			}
		}
	}
	if _, bad := s.Embodiment.Limits.Extra["extra"]; bad && ok.all("embodiment") {
		l.errorf(l.valuePos("embodiment.limits.extra"), "embodiment.limits.extra", `"extra" cannot name a limit: rules read limits.extra as the map of declared limits`)
	}
	if ok.all("tools") {
		for _, name := range sortedKeys(s.Tools) {
			v := s.Tools[name].Verify
			if v == nil {
				continue
			}
			p := "tools." + name + ".verify.tool"
			// The verifier's result is the evaluator's alone: a model that
			// could call it would read verdicts it must never see.
			if c, has := s.Tools[v.Tool]; !has || !c.Hidden {
				l.errorf(l.valuePos(p), p, "the verifier %q must not be offered to the acting model: give it a contract with hidden: true (tools.%s)", v.Tool, v.Tool)
			}
		}
	}
	if !ok.all("tests") {
		return
	}
	for i, t := range s.Tests {
		p := indexPath("tests", i)
		want := map[bool][2]string{true: {"allow", "block"}, false: {"success", "failure"}}[t.Call != nil]
		switch {
		case t.Call == nil && t.Check == nil:
			l.errorf(l.pos.lookup(p), p, "a rule test needs call (sent through the pre-hook chain) or check (a tool's check judged on observations)")
			continue
		case t.Call != nil && t.Check != nil:
			l.errorf(l.pos.lookup(p+".check"), p, "a rule test has call or check, not both")
			continue
		case t.Expect.Verdict != want[0] && t.Expect.Verdict != want[1]:
			kind := map[bool]string{true: "call", false: "check"}[t.Call != nil]
			l.errorf(l.valuePos(p+".expect.verdict"), p+".expect.verdict", "a %s test expects %s or %s, not %q", kind, want[0], want[1], t.Expect.Verdict)
		}
		if t.Check != nil && t.Check.Tool != "" {
			if c, has := s.Tools[t.Check.Tool]; has && c.Check == "" {
				cp := p + ".check.tool"
				l.errorf(l.valuePos(cp), cp, "the contract of %q has no check to test (tools.%s.check)", t.Check.Tool, t.Check.Tool)
			}
		}
		if len(t.Limits) > 0 && ok.all("embodiment") {
			if _, err := s.Embodiment.Limits.With(t.Limits); err != nil {
				l.errorf(l.valuePos(p+".limits"), p+".limits", "%s", err)
			}
		}
		if t.Clearance != nil && ok.all("embodiment") {
			names := SectorNames(s.Embodiment.Sectors())
			for _, k := range sortedKeys(t.Clearance) {
				if n, has := names[k]; !has || n != k {
					cp := p + ".clearance." + k
					l.errorf(l.pos.lookup(cp), cp, "%s", fmt.Sprintf("%q is not a clearance sector of the embodiment%s", k, suggest(k, mapKeys(names))))
				}
			}
		}
	}
}
