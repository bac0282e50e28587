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
// each toolset kind's own fields, the back-end results, and the registered
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
	var errs []error
	w.expand["#Toolset"] = func(path string, level int) *section {
		s, err := toolsets(f, w, c, path, level)
		if err != nil {
			errs = append(errs, err)
			return &section{level: level, title: "`" + path + "`"}
		}
		return s
	}
	root := w.object(2, "Top level", "", "The fields of a spec file.", spec)
	if len(errs) > 0 {
		return nil, errs[0]
	}

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

// toolsets documents toolsets.<name>: every toolset's fields, then a
// subsection per registered kind with exactly that kind's own fields.
func toolsets(f *file, w *walker, c *schema.Descriptors, path string, level int) (*section, error) {
	common, _ := f.defs["#ToolsetCommon"].(*ast.StructLit)
	s := w.object(level, "`"+path+"`", path, f.docs["#ToolsetCommon"], common)
	for _, n := range c.Names(schema.KindToolset) {
		d, _ := c.Lookup(schema.KindToolset, n)
		st, ok := f.defs["#Toolset_"+n].(*ast.StructLit)
		if !ok {
			continue
		}
		kw := newWalker(f, " ("+n+")")
		kw.skip["#ToolsetCommon"], kw.skip["kind"] = true, true
		doc := fmt.Sprintf("`kind: %q`: %s. Its fields beside every toolset's:", n, d.Doc)
		ks := kw.object(childLevel(level), "Toolset kind `"+n+"`", path, doc, st)
		if len(ks.rows) == 0 {
			ks.doc = fmt.Sprintf("`kind: %q`: %s. It has no fields beside every toolset's.", n, d.Doc)
		}
		for _, bl := range d.Blocks {
			if err := block(ks, kw.tail, path, bl, f.kinds); err != nil {
				return nil, fmt.Errorf("toolset kind %q: %w", n, err)
			}
		}
		s.children = append(s.children, ks)
	}
	return s, nil
}

// block documents a field of a kind's section that the kind checks against
// its own CUE, in place of the open struct the schema declares.
func block(ks *section, tail, path string, bl schema.Block, kinds map[string]string) error {
	bf, err := parse(bl.Field+".cue", []byte(bl.CUE), kinds)
	if err != nil {
		return err
	}
	st, ok := bf.defs[bl.Def].(*ast.StructLit)
	if !ok {
		return fmt.Errorf("block %s: no struct %s in its CUE", bl.Field, bl.Def)
	}
	fp := join(path, bl.Field)
	bw := newWalker(bf, tail)
	bs := bw.object(childLevel(ks.level), "`"+fp+"`"+tail, fp, bf.docs[bl.Def], st)
	for i := range ks.rows {
		if ks.rows[i].name == bl.Field {
			ks.rows[i].link, ks.rows[i].anchor = bs.anchor(), ""
			ks.rows[i].typ = "object"
		}
	}
	ks.children = append(ks.children, bs)
	return nil
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
