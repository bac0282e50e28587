package schema

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/expr-lang/expr/vm"
)

// Effect is one declared change a tool makes to the Scene Graph. It is
// applied exactly once per executed call the evaluator confirms with a
// success verdict, never on a failure, a process verdict or a call no
// evaluate hook judged. Exactly one verb is set:
//
//	{set: "robot.holding", to: EXPR}        the robot holds the object EXPR names
//	{set: "robot.near", to: EXPR}           the robot stands next to EXPR
//	{set: "state", of: EXPR, to: EXPR}      a thing's state ("open", "closed"): an object or a container
//	{clear: "robot.holding" | "robot.near"} the robot holds nothing / is near nothing
//	{add: "relation", of: EXPR, kind: K, to: EXPR}  EXPR(of) is K (on, in, near) EXPR(to)
//	{remove: "relation", of: EXPR, kind?: K}        drop of's K relations (all without kind)
//
// of and to are expr over CheckEnv (args, before, after, result, tool,
// limits) giving an object name or a scene-graph ref; kind is on, in or near,
// or an expr giving one (args.relation).
type Effect struct {
	Set    string `json:"set,omitempty"`
	Clear  string `json:"clear,omitempty"`
	Add    string `json:"add,omitempty"`
	Remove string `json:"remove,omitempty"`
	Of     string `json:"of,omitempty"`
	Kind   string `json:"kind,omitempty"`
	To     string `json:"to,omitempty"`
}

// EffectOp is what a compiled effect does.
type EffectOp string

// The effect operations.
const (
	OpSetHolding     EffectOp = "set robot.holding"
	OpSetNear        EffectOp = "set robot.near"
	OpSetState       EffectOp = "set state"
	OpClearHolding   EffectOp = "clear robot.holding"
	OpClearNear      EffectOp = "clear robot.near"
	OpAddRelation    EffectOp = "add relation"
	OpRemoveRelation EffectOp = "remove relation"
)

// IsRelationKind reports whether kind is a relation an effect may add or
// remove: on, in or near.
func IsRelationKind(kind string) bool { return kind == "on" || kind == "in" || kind == "near" }

// CompiledEffect is one effect ready to run: Of, To and KindExpr are nil
// when the effect has no such field; Kind is the literal relation, if given
// as one.
type CompiledEffect struct {
	Op       EffectOp
	Of, To   *vm.Program
	Kind     string
	KindExpr *vm.Program
	// Path is the effect's spec path (tools.pick_up.effects[0]).
	Path string
}

var bareWord = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// effects compiles one tool's effects; every problem is a positioned error.
func (c *ruleCompiler) effects(path string, effs []Effect) []CompiledEffect {
	out := make([]CompiledEffect, 0, len(effs))
	for i, e := range effs {
		p := fmt.Sprintf("%s[%d]", path, i)
		ce, ok := c.effect(p, e)
		if ok {
			out = append(out, ce)
		}
	}
	return out
}

func (c *ruleCompiler) effect(p string, e Effect) (CompiledEffect, bool) {
	ce := CompiledEffect{Path: p}
	var verbs []string
	for _, v := range []struct{ key, val string }{{"set", e.Set}, {"clear", e.Clear}, {"add", e.Add}, {"remove", e.Remove}} {
		if v.val != "" {
			verbs = append(verbs, v.key)
		}
	}
	if len(verbs) != 1 {
		c.fail(p, 0, 0, "an effect has exactly one of set, clear, add or remove (found %d: %s)", len(verbs), strings.Join(verbs, ", "))
		return ce, false
	}
	// want lists the fields the verb takes; the others must be absent.
	var need, allow []string
	switch {
	case e.Set == "robot.holding":
		ce.Op, need = OpSetHolding, []string{"to"}
	case e.Set == "robot.near":
		ce.Op, need = OpSetNear, []string{"to"}
	case e.Set == "state":
		ce.Op, need = OpSetState, []string{"of", "to"}
	case e.Clear == "robot.holding":
		ce.Op = OpClearHolding
	case e.Clear == "robot.near":
		ce.Op = OpClearNear
	case e.Add == "relation":
		ce.Op, need = OpAddRelation, []string{"of", "kind", "to"}
	case e.Remove == "relation":
		ce.Op, need, allow = OpRemoveRelation, []string{"of"}, []string{"kind"}
	default:
		verb := verbs[0]
		c.fail(p+"."+verb, 0, 0, "unknown %s target %q (want %s)", verb, e.Set+e.Clear+e.Add+e.Remove, map[string]string{
			"set": "robot.holding, robot.near or state", "clear": "robot.holding or robot.near",
			"add": "relation", "remove": "relation"}[verb])
		return ce, false
	}
	ok := true
	fields := map[string]string{"of": e.Of, "kind": e.Kind, "to": e.To}
	for _, f := range []string{"of", "kind", "to"} {
		switch {
		case slices.Contains(need, f) && fields[f] == "":
			c.fail(p, 0, 0, "%q needs %s", string(ce.Op), f)
			ok = false
		case !slices.Contains(need, f) && !slices.Contains(allow, f) && fields[f] != "":
			c.fail(p+"."+f, 0, 0, "%q takes no %s", string(ce.Op), f)
			ok = false
		}
	}
	ce.Of = c.nameExpr(p+".of", e.Of)
	ce.To = c.nameExpr(p+".to", e.To)
	switch {
	case e.Kind == "":
	case IsRelationKind(e.Kind):
		ce.Kind = e.Kind
	case bareWord.MatchString(e.Kind):
		// A bare word that is not a relation would compile as an unknown
		// name; say what it should be instead.
		c.fail(p+".kind", 0, 0, "unknown relation %q (want on, in or near, or an expression giving one such as args.relation)", e.Kind)
		ok = false
	default:
		ce.KindExpr = c.nameExpr(p+".kind", e.Kind)
	}
	return ce, ok && (e.Of == "" || ce.Of != nil) && (e.To == "" || ce.To != nil) && (ce.Kind != "" || e.Kind == "" || ce.KindExpr != nil)
}

// nameExpr compiles an effect's expression, which must give a string (a name,
// a ref, a state or a relation): a value of another known type is an error.
func (c *ruleCompiler) nameExpr(path, src string) *vm.Program {
	n := len(c.errs)
	p, t := c.compileTyped(path, src, CheckEnv{})
	if p == nil || len(c.errs) > n {
		return nil
	}
	switch {
	case t == nil, t.Kind() == reflect.String, t.Kind() == reflect.Interface:
		return p
	default:
		c.fail(path, 1, 1, "want a string (a name or a scene-graph ref), but the expression gives %s", t)
		return nil
	}
}

// SceneFrame is the frame the Scene Graph states positions in:
// scene_graph.frame, else the embodiment's first frame, else "map".
func (s *Spec) SceneFrame() string {
	switch {
	case s.SceneGraph.Frame != "":
		return s.SceneGraph.Frame
	case len(s.Embodiment.Frames) > 0:
		return s.Embodiment.Frames[0].Name
	}
	return "map"
}

// sceneFrame checks scene_graph.frame names a frame of the embodiment, when
// both are given.
func (c *ruleCompiler) sceneFrame() {
	f := c.spec.SceneGraph.Frame
	frames := c.spec.Embodiment.Frames
	if f == "" || len(frames) == 0 {
		return
	}
	names := make([]string, len(frames))
	for i, fr := range frames {
		if fr.Name == f {
			return
		}
		names[i] = fr.Name
	}
	c.fail("scene_graph.frame", 0, 0, "frame %q is not a frame of the embodiment (it declares %s)", f, strings.Join(names, ", "))
}
