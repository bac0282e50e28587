package scaffold

import (
	"fmt"
	"strings"

	"github.com/thea-harness/thea/toolsets/rosbridge/graph"
)

// A tool's arguments and its goal (or request) expr, drafted from the
// message's definition: each scalar field becomes an argument, the common
// geometry messages become a few meaningful ones (a pose: x, y, z and a
// yaw in degrees), a duration is seconds, headers take the scene's frame,
// and a list becomes an array argument: of scalars, or of objects built
// from the element's fields (a trajectory's points), each element mapped
// into its message by the expr. What cannot be built (times, cut
// definitions, lists nested past the arguments' depth) is left at its
// default with a REVIEW note.

// Bounds of one tool's arguments.
const (
	maxArgs     = 12 // top-level arguments, and properties of one element
	maxArgItems = 64 // elements of an array argument
	// argDepth is how many arrays and objects an argument may nest (the
	// rosbridge kind's bound).
	argDepth = 4
)

// goalContext is what a goal's builder knows of the robot beyond the
// message: the frame a header takes and the arm's joints (a trajectory's
// default joint_names).
type goalContext struct {
	frame      string
	jointNames []string
}

// goalBuilder builds one tool's arguments and goal.
type goalBuilder struct {
	ctx    goalContext
	review []string
}

// scope is where arguments are added: the tool's args (ref "args.") or the
// properties of an array's element (ref "#."), at a nesting depth.
type scope struct {
	ref   string
	args  []draftArg
	names *namer
	depth int
}

// exprKeywords cannot be bare keys of an expr map literal.
var exprKeywords = map[string]bool{"in": true, "not": true, "and": true, "or": true, "matches": true,
	"contains": true, "startsWith": true, "endsWith": true, "let": true, "nil": true, "true": true,
	"false": true, "if": true, "else": true}

// optionalLists name list fields a goal usually leaves empty (tolerances,
// a point's velocities): optional arguments; any other list is required.
var optionalLists = []string{"tolerance", "velocities", "accelerations", "effort", "covariance", "constraint", "option", "param", "extra"}

// buildGoal drafts m as an expr building it from args: "{}" when it has no
// field an argument can set.
func buildGoal(m *graph.Message, ctx goalContext) (expr string, args []draftArg, review []string) {
	if ctx.frame == "" {
		ctx.frame = "map"
	}
	b := &goalBuilder{ctx: ctx}
	sc := &scope{ref: "args.", names: newNamer()}
	expr = b.message(m, nil, "", sc)
	if expr == "" {
		expr = "{}"
	}
	return expr, sc.args, b.review
}

// message is m's map literal, "" when no field is set; at is the path
// inside the scope (argument names), where the path from the goal's root
// (descriptions and notes).
func (b *goalBuilder) message(m *graph.Message, at []string, where string, sc *scope) string {
	var pairs []string
	for _, f := range m.Fields {
		fat := append(append([]string{}, at...), f.Name)
		fwhere := join(where, f.Name)
		if !identifier.MatchString(f.Name) {
			b.review = append(b.review, fmt.Sprintf("field %q is not a plain name and is left at its default", safeText(fwhere)))
			continue
		}
		v := b.field(f, m.Type, fat, fwhere, sc)
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

func join(where, name string) string {
	if where == "" {
		return name
	}
	return where + "." + name
}

// field is the expr of one field of a message of type owner, "" to leave
// it at its default.
func (b *goalBuilder) field(f graph.Field, owner string, at []string, where string, sc *scope) string {
	typ := strings.Replace(f.Type, "/msg/", "/", 1)
	switch {
	case f.Array:
		return b.list(f, owner, at, where, sc)
	case typ == "builtin_interfaces/Time", typ == "unique_identifier_msgs/UUID":
		return ""
	case typ == "builtin_interfaces/Duration":
		// Inside a list a duration is the element's time (a trajectory
		// point's time_from_start): required.
		x := b.add(sc, draftArg{Name: b.prefix(at) + "s", Type: "number", Description: where + ": a duration, seconds",
			Optional: sc.depth == 0, Default: "0.0", Minimum: ptr(0.0)}, where)
		if x == "" {
			return ""
		}
		return fmt.Sprintf("{sec: int(%s), nanosec: int((%s - int(%s)) * 1e9)}", x, x, x)
	case typ == "std_msgs/Header":
		b.review = append(b.review, fmt.Sprintf("%s.frame_id is '%s': use the frame the goal is given in", where, b.ctx.frame))
		return fmt.Sprintf("{frame_id: '%s'}", b.ctx.frame)
	case f.Cut:
		b.review = append(b.review, fmt.Sprintf("%s (%s) could not be followed (too deep, a cycle or no definition) and is left at its default", where, safeText(typ)))
		return ""
	case f.Message == nil:
		return b.scalar(f, at, where, sc)
	case typ == "geometry_msgs/Pose":
		if !b.room(sc, 4, where) {
			return ""
		}
		p := b.prefix(at)
		x, y, z := b.number(sc, p+"x", where+".position.x, metres", false), b.number(sc, p+"y", where+".position.y, metres", false), b.number(sc, p+"z", where+".position.z, metres (default 0)", true)
		yaw := b.number(sc, p+"yaw_deg", where+": heading about z, degrees (default 0)", true)
		if x == "" || y == "" || z == "" || yaw == "" {
			return ""
		}
		return fmt.Sprintf("{position: {x: %s, y: %s, z: %s}, orientation: %s}", x, y, z, quaternion(yaw))
	case typ == "geometry_msgs/Point", typ == "geometry_msgs/Vector3":
		if !b.room(sc, 3, where) {
			return ""
		}
		p := b.prefix(at)
		x, y, z := b.number(sc, p+"x", where+".x", false), b.number(sc, p+"y", where+".y", false), b.number(sc, p+"z", where+".z (default 0)", true)
		if x == "" || y == "" || z == "" {
			return ""
		}
		return fmt.Sprintf("{x: %s, y: %s, z: %s}", x, y, z)
	case typ == "geometry_msgs/Quaternion":
		yaw := b.number(sc, b.prefix(at)+"yaw_deg", where+": heading about z, degrees (default 0)", true)
		if yaw == "" {
			return ""
		}
		return quaternion(yaw)
	}
	return b.message(f.Message, at, where, sc)
}

func ptr[T any](v T) *T { return &v }

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

// scalarArg is a primitive field's argument (its name and description
// unset); ok is false for a type it does not know.
func scalarArg(rosType string) (draftArg, bool) {
	switch rosType {
	case "float", "float32", "double", "float64":
		return draftArg{Type: "number"}, true
	case "bool", "boolean":
		return draftArg{Type: "boolean"}, true
	case "string", "wstring":
		return draftArg{Type: "string", Optional: true, Default: "''"}, true
	case "byte", "char", "octet", "uint8", "uint16", "uint32", "uint64":
		return draftArg{Type: "integer", Minimum: ptr(0.0)}, true
	case "int8", "int16", "int32", "int64":
		return draftArg{Type: "integer"}, true
	}
	if strings.HasPrefix(rosType, "string<") || strings.HasPrefix(rosType, "wstring<") {
		return draftArg{Type: "string", Optional: true, Default: "''"}, true
	}
	return draftArg{}, false
}

// scalar is a primitive field as an argument.
func (b *goalBuilder) scalar(f graph.Field, at []string, where string, sc *scope) string {
	a, ok := scalarArg(f.Type)
	if !ok {
		b.review = append(b.review, fmt.Sprintf("%s has the unknown type %s and is left at its default", where, safeText(f.Type)))
		return ""
	}
	a.Name = strings.TrimSuffix(b.prefix(at), "_")
	a.Description = fmt.Sprintf("%s (%s)", where, f.Type)
	if a.Type == "string" {
		a.Description += ", default empty"
	}
	return b.add(sc, a, where)
}

// room reports whether n more arguments fit; it notes the field when not.
func (b *goalBuilder) room(sc *scope, n int, where string) bool {
	if len(sc.args)+n <= maxArgs {
		return true
	}
	b.review = append(b.review, fmt.Sprintf("%s is left at its default: a tool takes at most %d arguments here", where, maxArgs))
	return false
}

// number adds a number argument; an optional one defaults to 0.
func (b *goalBuilder) number(sc *scope, name, desc string, optional bool) string {
	a := draftArg{Name: name, Type: "number", Description: desc, Optional: optional}
	if optional {
		a.Default = "0.0"
	}
	return b.add(sc, a, desc)
}

// add adds an argument to the scope and returns the expr reading it; ""
// past maxArgs.
func (b *goalBuilder) add(sc *scope, a draftArg, where string) string {
	if len(sc.args) >= maxArgs {
		b.review = append(b.review, fmt.Sprintf("%s is left at its default: a tool takes at most %d arguments here", where, maxArgs))
		return ""
	}
	a.Name = sc.names.name(a.Name)
	sc.args = append(sc.args, a)
	if a.Optional {
		return fmt.Sprintf("(%s%s ?? %s)", sc.ref, a.Name, a.Default)
	}
	return sc.ref + a.Name
}
