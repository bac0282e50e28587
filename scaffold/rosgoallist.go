package scaffold

import (
	"fmt"
	"strings"

	"github.com/thea-harness/thea/toolsets/rosbridge/graph"
)

// Lists of a goal as array arguments: a list of scalars is an array of
// them, a list of messages an array of objects whose properties are the
// element's fields, mapped into the message by map(list, ({…})). A
// list is optional (default empty) when its name says a goal usually
// leaves it so (tolerances, a point's velocities), else required.

// list is the expr of a list field, "" to leave it empty.
func (b *goalBuilder) list(f graph.Field, owner string, at []string, where string, sc *scope) string {
	typ := strings.Replace(f.Type, "/msg/", "/", 1)
	name := strings.TrimSuffix(b.prefix(at), "_")
	optional := hasWord(f.Name, optionalLists)
	arr := draftArg{Name: name, Type: "array", MaxItems: maxArgItems, Optional: optional, Default: "[]"}
	if f.Message == nil {
		item, ok := scalarArg(f.Type)
		if !ok || sc.depth >= argDepth {
			b.review = append(b.review, fmt.Sprintf("%s (a list of %s) is left empty: no argument can give it here", where, safeText(typ)))
			return ""
		}
		item = draftArg{Type: item.Type, Minimum: item.Minimum}
		arr.Items = &item
		arr.Description = fmt.Sprintf("%s: a list of %s (at most %d)%s", where, f.Type, maxArgItems, perJoint(owner))
		if f.Name == "joint_names" && item.Type == "string" && sc.depth == 0 && len(b.ctx.jointNames) > 0 {
			names := make([]string, len(b.ctx.jointNames))
			for i, n := range b.ctx.jointNames {
				names[i] = "'" + n + "'"
			}
			arr.Optional, arr.Default = true, "["+strings.Join(names, ", ")+"]"
			arr.Description += "; default the arm's joints, as the joint states named them while drafting"
			b.review = append(b.review, fmt.Sprintf("%s defaults to the joints the joint states named while drafting (the gripper's left out): check that they are this controller's, in its order", where))
		}
		return b.add(sc, arr, where)
	}
	if sc.depth+1 >= argDepth {
		b.review = append(b.review, fmt.Sprintf("%s (a list of %s) is left empty: it nests deeper than arguments may", where, safeText(typ)))
		return ""
	}
	if len(sc.args) >= maxArgs {
		b.review = append(b.review, fmt.Sprintf("%s is left empty: a tool takes at most %d arguments here", where, maxArgs))
		return ""
	}
	el := &scope{ref: "#.", names: newNamer(), depth: sc.depth + 2}
	body := b.message(f.Message, nil, where+"[]", el)
	if body == "" {
		b.review = append(b.review, fmt.Sprintf("%s (a list of %s) is left empty: no field of its elements can be set", where, safeText(typ)))
		return ""
	}
	arr.Items = &draftArg{Type: "object", Properties: el.args}
	arr.Description = fmt.Sprintf("%s: a list of %s (at most %d), each element's fields as properties", where, typ, maxArgItems)
	x := b.add(sc, arr, where)
	if x == "" {
		return ""
	}
	return fmt.Sprintf("map(%s, (%s))", x, body)
}

// perJoint says that a trajectory point's list has one value per joint.
func perJoint(owner string) string {
	if strings.HasSuffix(owner, "JointTrajectoryPoint") {
		return ", one per joint of joint_names, in its order"
	}
	return ""
}
