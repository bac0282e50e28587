package reference

import (
	"bytes"
	"fmt"
	"strings"

	"cuelang.org/go/cue/ast"

	"github.com/thea-harness/thea/schema"
)

// Command is how the reference is regenerated; its header says so.
const Command = "make docs"

// Undocumented marks a field without a doc comment. The reference's tests
// fail on it: every field a spec can set says what it does.
const Undocumented = "**undocumented**"

// componentKinds are the catalog's kinds in the order the reference lists
// them, each with its heading and the field that names it.
var componentKinds = []struct {
	kind    schema.Kind
	def     string
	heading string
	field   string
}{
	{schema.KindProvider, "#Provider", "Model providers", "model.provider"},
	{schema.KindToolset, "#ToolsetKind", "Toolset kinds", "toolsets.<name>.kind"},
	{schema.KindStage, "#StageName", "Stages", "loop.stages"},
	{schema.KindPreAction, "#PreAction", "Pre-hook actions", "hooks.pre[].action"},
	{schema.KindPostAction, "#PostAction", "Post-hook actions", "hooks.post[].action"},
	{schema.KindUserChannel, "#UserChannel", "User channels", "user.channel"},
}

// contractDefs are the back-end results, in reading order.
var contractDefs = []string{"#Envelope", "#Observation", "#Clearance", "#Verdict"}

// Markdown is the spec reference of the embedded schema, completed by the
// catalog c: every field from #Spec down with its type, default and doc,
// each component's own fields (a toolset kind's, a provider's, a hook
// action's, a user channel's), the back-end results, and the registered
// components.
func Markdown(c *schema.Descriptors) ([]byte, error) {
	kinds := map[string]string{}
	for _, k := range componentKinds {
		kinds[k.def] = fmt.Sprintf("registered [%s](#%s) name", strings.ToLower(singular(k.heading)), slug(k.heading))
	}
	f, err := parse("spec.cue", schema.CUESchema(c), kinds)
	if err != nil {
		return nil, err
	}
	spec, ok := f.defs["#Spec"].(*ast.StructLit)
	if !ok {
		return nil, fmt.Errorf("the schema has no #Spec struct")
	}
	w := newWalker(f, "")
	for _, sk := range schema.SectionKinds() {
		w.expand["#"+sk.Def] = func(path string, level int) *section {
			return sectioned(f, w, c, sk, path, level)
		}
	}
	root := w.object(2, "Top level", "", "The fields of a spec file.", spec)

	var b bytes.Buffer
	header(&b)
	tops := append([]*section{root}, root.children...)
	root.children = nil
	contract := contractSection(f)
	b.WriteString("## Contents\n\n")
	for _, s := range append(tops, contract) {
		fmt.Fprintf(&b, "- [%s](#%s)\n", s.title, s.anchor())
	}
	b.WriteString("- [Components](#components)\n\n")
	for _, s := range tops {
		render(&b, s)
	}
	render(&b, contract)
	components(&b, c)
	return b.Bytes(), nil
}

// sectioned documents a section that names a component (toolsets.<name>,
// model, hooks.pre[], user): the fields every such section has, then a
// subsection per registered component with exactly that component's own
// fields (and the objects they hold).
func sectioned(f *file, w *walker, c *schema.Descriptors, sk schema.SectionKind, path string, level int) *section {
	common := "#" + sk.Def + "Common"
	st, _ := f.defs[common].(*ast.StructLit)
	s := w.object(level, "`"+path+"`", path, f.docs[common], st)
	word := strings.ToUpper(string(sk.Kind)[:1]) + string(sk.Kind)[1:]
	for _, n := range c.Names(sk.Kind) {
		d, _ := c.Lookup(sk.Kind, n)
		kst, ok := f.defs[sk.KindDef(n)].(*ast.StructLit)
		if !ok {
			continue
		}
		kw := newWalker(f, " ("+n+")")
		kw.skip[common], kw.skip[sk.Selector] = true, true
		doc := fmt.Sprintf("`%s: %q`: %s. Its fields beside every %s's:", sk.Selector, n, d.Doc, sk.Noun)
		ks := kw.object(childLevel(level), word+" `"+n+"`", path, doc, kst)
		if len(ks.rows) == 0 {
			ks.doc = fmt.Sprintf("`%s: %q`: %s. It has no fields beside every %s's.", sk.Selector, n, d.Doc, sk.Noun)
		}
		s.children = append(s.children, ks)
	}
	return s
}

// contractSection documents what back-end tools return.
func contractSection(f *file) *section {
	s := &section{level: 2, title: "Back-end results", doc: "What the tools bound to `observation.tool`, " +
		"`safety.clearance_tool`, `evaluator.evidence` and a contract's `verify` return. " +
		"`thea schema --format jsonschema --def observation` (or clearance, verdict, envelope) prints each as a JSON Schema."}
	for _, def := range contractDefs {
		name := strings.TrimPrefix(def, "#")
		title := "`" + name + "` (result)"
		st, ok := f.defs[def].(*ast.StructLit)
		if !ok || !hasFields(st) {
			sh := f.describe(f.defs[def])
			cs := &section{level: 3, title: title, doc: f.docs[def] + "\n\nType: " + sh.text}
			if len(sh.constraints) > 0 {
				cs.doc += ", " + strings.Join(sh.constraints, ", ")
			}
			s.children = append(s.children, cs)
			continue
		}
		cw := newWalker(f, " (result)")
		s.children = append(s.children, cw.object(3, title, name, f.docs[def], st))
	}
	return s
}

func header(b *bytes.Buffer) {
	fmt.Fprintf(b, `# Spec reference

Generated from the embedded CUE schema and this build's component catalog by
`+"`thea schema --format markdown`"+` (run `+"`%s`"+` to regenerate; do not edit by hand): a test fails when it is out of date.
Every field a spec can set is here, with its type, its default and what it does.

How to read it:

- A path such as `+"`context.compaction.reserve_tokens`"+` is where the field sits in a spec.
  `+"`<name>`"+` is a key you choose (a toolset's or a tool's name); `+"`[]`"+` is each element of a list.
- *required* fields must be set; a field with a default may be left out; a field with neither is optional.
- A constraint (≥ 0, matches a pattern) is checked when the spec loads (`+"`thea validate`"+`).

## Value types

| Type | What it is |
|---|---|
| duration | a Go duration string: `+"`\"30s\"`, `\"1m30s\"`, `\"200ms\"`"+` (units ns, us, ms, s, m, h) |
| identifier | letters, digits and `+"`_`"+`, not starting with a digit; usable as a field in rules |
| expr | an expression in the [expr language](https://expr-lang.org) over the names the field's description gives |
| ROS name | a ROS topic, service or action name such as `+"`/cmd_vel`"+` |
| ROS type | a ROS interface type such as `+"`geometry_msgs/msg/Twist`"+` (`+"`msg`, `srv` or `action`"+`) |
| tool name | 1 to 64 letters, digits, `+"`_`"+` or `+"`-`"+` |

`, Command)
}
