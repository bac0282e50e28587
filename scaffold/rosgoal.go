package scaffold

import (
	"fmt"
	"strings"

	"github.com/thea-harness/thea/toolsets/rosbridge"
)

// A tool's arguments and its goal (or request) expr, drafted from the
// message's definition: each scalar field becomes an argument, the common
// geometry messages become a few meaningful ones (a pose: x, y, z and a
// yaw in degrees), headers take a frame, and what a scalar argument cannot
// build (lists, times, cut definitions) is left at its default with a
// REVIEW note.

// maxArgs bounds one tool's arguments.
const maxArgs = 12

// goalBuilder builds one tool's arguments and goal.
type goalBuilder struct {
	args   []draftArg
	names  *namer
	review []string
}

// exprKeywords cannot be bare keys of an expr map literal.
var exprKeywords = map[string]bool{"in": true, "not": true, "and": true, "or": true, "matches": true,
	"contains": true, "startsWith": true, "endsWith": true, "let": true, "nil": true, "true": true,
	"false": true, "if": true, "else": true}

// buildGoal drafts m as an expr building it from args: "{}" when it has no
// field an argument can set.
func buildGoal(m *rosbridge.Message) (expr string, args []draftArg, review []string) {
	b := &goalBuilder{names: newNamer()}
	expr = b.message(m, nil)
	if expr == "" {
		expr = "{}"
	}
	return expr, b.args, b.review
}

// message is m's map literal, "" when no field is set.
func (b *goalBuilder) message(m *rosbridge.Message, path []string) string {
	var pairs []string
	for _, f := range m.Fields {
		at := append(append([]string{}, path...), f.Name)
		where := strings.Join(at, ".")
		if !identifier.MatchString(f.Name) {
			b.review = append(b.review, fmt.Sprintf("field %q is not a plain name and is left at its default", safeText(where)))
			continue
		}
		v := b.field(f, at, where)
		if v == "" {
			continue
		}
		key := f.Name
		if exprKeywords[key] {
			key = "'" + key + "'"
		}
		pairs = append(pairs, key+": "+v)
	}
	if len(pairs) == 0 {
		return ""
	}
	return "{" + strings.Join(pairs, ", ") + "}"
}

// field is the expr of one field, "" to leave it at its default.
func (b *goalBuilder) field(f rosbridge.Field, at []string, where string) string {
	typ := strings.Replace(f.Type, "/msg/", "/", 1)
	switch {
	case f.Array:
		b.review = append(b.review, fmt.Sprintf("%s (a list of %s) is left empty: tool arguments are scalars", where, safeText(typ)))
		return ""
	case typ == "builtin_interfaces/Time", typ == "unique_identifier_msgs/UUID":
		return ""
	case typ == "builtin_interfaces/Duration":
		b.review = append(b.review, fmt.Sprintf("%s (a duration) is left at zero", where))
		return ""
	case typ == "std_msgs/Header":
		b.review = append(b.review, fmt.Sprintf("%s.frame_id is 'map': use the frame the goal is given in", where))
		return "{frame_id: 'map'}"
	case f.Cut:
		b.review = append(b.review, fmt.Sprintf("%s (%s) could not be followed (too deep, a cycle or no definition) and is left at its default", where, safeText(typ)))
		return ""
	case f.Message == nil:
		return b.scalar(f, at, where)
	case typ == "geometry_msgs/Pose":
		if !b.room(4, where) {
			return ""
		}
		p := b.prefix(at)
		x, y, z := b.number(p+"x", where+".position.x, metres", false), b.number(p+"y", where+".position.y, metres", false), b.number(p+"z", where+".position.z, metres (default 0)", true)
		yaw := b.number(p+"yaw_deg", where+": heading about z, degrees (default 0)", true)
		if x == "" || y == "" || z == "" || yaw == "" {
			return ""
		}
		return fmt.Sprintf("{position: {x: %s, y: %s, z: %s}, orientation: %s}", x, y, z, quaternion(yaw))
	case typ == "geometry_msgs/Point", typ == "geometry_msgs/Vector3":
		if !b.room(3, where) {
			return ""
		}
		p := b.prefix(at)
		x, y, z := b.number(p+"x", where+".x", false), b.number(p+"y", where+".y", false), b.number(p+"z", where+".z (default 0)", true)
		if x == "" || y == "" || z == "" {
			return ""
		}
		return fmt.Sprintf("{x: %s, y: %s, z: %s}", x, y, z)
	case typ == "geometry_msgs/Quaternion":
		yaw := b.number(b.prefix(at)+"yaw_deg", where+": heading about z, degrees (default 0)", true)
		if yaw == "" {
			return ""
		}
		return quaternion(yaw)
	}
	return b.message(f.Message, at)
}

func quaternion(yaw string) string {
	return fmt.Sprintf("{x: 0.0, y: 0.0, z: sin(%s * pi / 360), w: cos(%s * pi / 360)}", yaw, yaw)
}

// prefix is the argument prefix of a field path: its names joined, a name
// the one before already ends with left out (pose.pose is pose_,
// grasp_pose.pose grasp_pose_).
func (b *goalBuilder) prefix(at []string) string {
	var parts []string
	for _, p := range at {
		if n := len(parts); n == 0 || (parts[n-1] != p && !strings.HasSuffix(parts[n-1], "_"+p)) {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, "_") + "_"
}

// scalar is a primitive field as an argument.
func (b *goalBuilder) scalar(f rosbridge.Field, at []string, where string) string {
	name := strings.TrimSuffix(b.prefix(at), "_")
	desc := fmt.Sprintf("%s (%s)", where, f.Type)
	switch f.Type {
	case "float", "float32", "double", "float64":
		return b.number(name, desc, false)
	case "bool", "boolean":
		return b.add(draftArg{Name: name, Type: "boolean", Description: desc})
	case "string", "wstring":
		return b.add(draftArg{Name: name, Type: "string", Description: desc + ", default empty", Optional: true, Default: "''"})
	case "byte", "char", "octet", "uint8", "uint16", "uint32", "uint64":
		zero := 0.0
		return b.add(draftArg{Name: name, Type: "integer", Description: desc, Minimum: &zero})
	case "int8", "int16", "int32", "int64":
		return b.add(draftArg{Name: name, Type: "integer", Description: desc})
	}
	if strings.HasPrefix(f.Type, "string<") || strings.HasPrefix(f.Type, "wstring<") {
		return b.add(draftArg{Name: name, Type: "string", Description: desc + ", default empty", Optional: true, Default: "''"})
	}
	b.review = append(b.review, fmt.Sprintf("%s has the unknown type %s and is left at its default", where, safeText(f.Type)))
	return ""
}

// room reports whether n more arguments fit; it notes the field when not.
func (b *goalBuilder) room(n int, where string) bool {
	if len(b.args)+n <= maxArgs {
		return true
	}
	b.review = append(b.review, fmt.Sprintf("%s is left at its default: a tool takes at most %d arguments here", where, maxArgs))
	return false
}

// number adds a number argument; an optional one defaults to 0.
func (b *goalBuilder) number(name, desc string, optional bool) string {
	a := draftArg{Name: name, Type: "number", Description: desc, Optional: optional}
	if optional {
		a.Default = "0.0"
	}
	return b.add(a)
}

// add adds an argument and returns the expr reading it; "" past maxArgs.
func (b *goalBuilder) add(a draftArg) string {
	if len(b.args) >= maxArgs {
		b.review = append(b.review, fmt.Sprintf("%s is left at its default: a tool takes at most %d arguments here", a.Description, maxArgs))
		return ""
	}
	a.Name = b.names.name(a.Name)
	b.args = append(b.args, a)
	if a.Optional {
		return fmt.Sprintf("(args.%s ?? %s)", a.Name, a.Default)
	}
	return "args." + a.Name
}
