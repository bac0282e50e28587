package rosbridgetest

import (
	"fmt"
	"maps"
	"math"
	"sort"
	"strconv"
	"strings"
)

// field is one field of a ROS message type.
type field struct {
	name     string
	typ      string // a primitive (float, double, int32, …) or a message type pkg/msg/Name
	arrayLen int    // -1 scalar, 0 unbounded sequence, n fixed array
}

// typedefs are the message definitions the fake knows: the ones its
// graph uses, in ROS 2 names. rosapi serves them; publishes, goals and
// service requests are checked against them, as rosbridge checks a
// message against its type.
type typedefs map[string][]field

// definitions is the source of typedefs: "name type", "name type[]",
// "name type[n]".
func definitions() map[string][]string {
	return map[string][]string{
		"builtin_interfaces/msg/Time":           {"sec int32", "nanosec uint32"},
		"builtin_interfaces/msg/Duration":       {"sec int32", "nanosec uint32"},
		"std_msgs/msg/Header":                   {"stamp builtin_interfaces/msg/Time", "frame_id string"},
		"std_msgs/msg/String":                   {"data string"},
		"std_msgs/msg/Bool":                     {"data bool"},
		"std_msgs/msg/Float32":                  {"data float"},
		"geometry_msgs/msg/Vector3":             {"x double", "y double", "z double"},
		"geometry_msgs/msg/Point":               {"x double", "y double", "z double"},
		"geometry_msgs/msg/Quaternion":          {"x double", "y double", "z double", "w double"},
		"geometry_msgs/msg/Pose":                {"position geometry_msgs/msg/Point", "orientation geometry_msgs/msg/Quaternion"},
		"geometry_msgs/msg/PoseStamped":         {"header std_msgs/msg/Header", "pose geometry_msgs/msg/Pose"},
		"geometry_msgs/msg/PoseWithCovariance":  {"pose geometry_msgs/msg/Pose", "covariance double[36]"},
		"geometry_msgs/msg/Twist":               {"linear geometry_msgs/msg/Vector3", "angular geometry_msgs/msg/Vector3"},
		"geometry_msgs/msg/TwistWithCovariance": {"twist geometry_msgs/msg/Twist", "covariance double[36]"},
		"nav_msgs/msg/Odometry": {"header std_msgs/msg/Header", "child_frame_id string",
			"pose geometry_msgs/msg/PoseWithCovariance", "twist geometry_msgs/msg/TwistWithCovariance"},
		"sensor_msgs/msg/LaserScan": {"header std_msgs/msg/Header", "angle_min float", "angle_max float",
			"angle_increment float", "time_increment float", "scan_time float", "range_min float",
			"range_max float", "ranges float[]", "intensities float[]"},
		"sensor_msgs/msg/CompressedImage": {"header std_msgs/msg/Header", "format string", "data uint8[]"},
		"sensor_msgs/msg/BatteryState": {"header std_msgs/msg/Header", "voltage float", "temperature float",
			"current float", "charge float", "capacity float", "design_capacity float", "percentage float",
			"power_supply_status uint8", "power_supply_health uint8", "power_supply_technology uint8",
			"present boolean", "cell_voltage float[]", "cell_temperature float[]", "location string",
			"serial_number string"},
		"rcl_interfaces/msg/Log": {"stamp builtin_interfaces/msg/Time", "level uint8", "name string",
			"msg string", "file string", "function string", "line uint32"},
		"rcl_interfaces/msg/ParameterEvent": {"stamp builtin_interfaces/msg/Time", "node string"},
		"unique_identifier_msgs/msg/UUID":   {"uuid uint8[16]"},
		"action_msgs/msg/GoalInfo":          {"goal_id unique_identifier_msgs/msg/UUID", "stamp builtin_interfaces/msg/Time"},
		"rosapi_msgs/msg/TypeDef": {"type string", "fieldnames string[]", "fieldtypes string[]",
			"fieldarraylen int32[]", "examples string[]", "constnames string[]", "constvalues string[]"},

		"nav2_msgs/action/NavigateToPose_Goal":   {"pose geometry_msgs/msg/PoseStamped", "behavior_tree string"},
		"nav2_msgs/action/NavigateToPose_Result": {"error_code uint16", "error_msg string"},
		"nav2_msgs/action/NavigateToPose_Feedback": {"current_pose geometry_msgs/msg/PoseStamped",
			"navigation_time builtin_interfaces/msg/Duration", "estimated_time_remaining builtin_interfaces/msg/Duration",
			"number_of_recoveries int16", "distance_remaining float"},

		"std_srvs/srv/Trigger_Request":  {},
		"std_srvs/srv/Trigger_Response": {"success boolean", "message string"},
		"std_srvs/srv/Empty_Request":    {},
		"std_srvs/srv/Empty_Response":   {},
		"std_srvs/srv/SetBool_Request":  {"data boolean"},
		"std_srvs/srv/SetBool_Response": {"success boolean", "message string"},
		"controller_manager_msgs/srv/SwitchController_Request": {"activate_controllers string[]",
			"deactivate_controllers string[]", "strictness int32", "activate_asap boolean",
			"timeout builtin_interfaces/msg/Duration"},
		"controller_manager_msgs/srv/SwitchController_Response": {"ok boolean", "message string"},
		"action_msgs/srv/CancelGoal_Request":                    {"goal_info action_msgs/msg/GoalInfo"},
		"action_msgs/srv/CancelGoal_Response":                   {"return_code int8", "goals_canceling action_msgs/msg/GoalInfo[]"},
	}
}

// newTypedefs parses definitions.
func newTypedefs() typedefs {
	t := typedefs{}
	all := definitions()
	maps.Copy(all, instantDefinitions())
	maps.Copy(all, armDefinitions())
	for typ, lines := range all {
		fields := make([]field, 0, len(lines))
		for _, l := range lines {
			name, ft, _ := strings.Cut(l, " ")
			f := field{name: name, typ: ft, arrayLen: -1}
			if i := strings.IndexByte(ft, '['); i >= 0 {
				f.typ = ft[:i]
				f.arrayLen = 0
				if n, err := strconv.Atoi(ft[i+1 : len(ft)-1]); err == nil {
					f.arrayLen = n
				}
			}
			fields = append(fields, f)
		}
		t[typ] = fields
	}
	return t
}

// canonical turns "pkg/Name" into "pkg/msg/Name" (rosbridge accepts both).
func canonical(typ string) string {
	if strings.Count(typ, "/") == 1 {
		pkg, name, _ := strings.Cut(typ, "/")
		return pkg + "/msg/" + name
	}
	return typ
}

// rosapiName is how rosapi names a type in a TypeDef: "pkg/Name".
func rosapiName(typ string) string {
	parts := strings.Split(typ, "/")
	if len(parts) == 3 {
		return parts[0] + "/" + parts[2]
	}
	return typ
}

func isPrimitive(t string) bool {
	switch t {
	case "bool", "boolean", "byte", "char", "octet", "int8", "uint8", "int16", "uint16", "int32",
		"uint32", "int64", "uint64", "float", "float32", "double", "float64", "string":
		return true
	}
	return false
}

// typeDef is rosapi_msgs/msg/TypeDef as JSON.
func (t typedefs) typeDef(typ string) map[string]any {
	fields := t[typ]
	names, types, examples := []string{}, []string{}, []string{}
	lens := []int{}
	for _, f := range fields {
		names = append(names, f.name)
		lens = append(lens, f.arrayLen)
		switch {
		case f.arrayLen >= 0:
			examples = append(examples, "[]")
		case !isPrimitive(f.typ):
			examples = append(examples, "{}")
		case f.typ == "string":
			examples = append(examples, "")
		case f.typ == "boolean":
			examples = append(examples, "False")
		case f.typ == "float" || f.typ == "double":
			examples = append(examples, "0.0")
		default:
			examples = append(examples, "0")
		}
		if isPrimitive(f.typ) {
			types = append(types, f.typ)
		} else {
			types = append(types, rosapiName(f.typ))
		}
	}
	return map[string]any{"type": rosapiName(typ), "fieldnames": names, "fieldtypes": types,
		"fieldarraylen": lens, "examples": examples, "constnames": []string{}, "constvalues": []string{}}
}

// recursive lists typ's TypeDef and those of every message type inside it,
// each once, as rosapi's message_details does.
func (t typedefs) recursive(typ string) []map[string]any {
	out := []map[string]any{}
	seen := map[string]bool{}
	var walk func(string)
	walk = func(ty string) {
		if seen[ty] || isPrimitive(ty) {
			return
		}
		seen[ty] = true
		if _, ok := t[ty]; !ok {
			return
		}
		out = append(out, t.typeDef(ty))
		for _, f := range t[ty] {
			walk(f.typ)
		}
	}
	walk(canonical(typ))
	return out
}

// check reports why v is not a message of type typ, as rosbridge would
// refuse it; missing fields are fine (they take defaults).
func (t typedefs) check(typ string, v any) error {
	fields, ok := t[typ]
	if !ok {
		return fmt.Errorf("unknown type %s", typ)
	}
	if v == nil {
		return nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return fmt.Errorf("%s: expected an object, got %T", typ, v)
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		var f *field
		for i := range fields {
			if fields[i].name == k {
				f = &fields[i]
			}
		}
		if f == nil {
			//lint:ignore ST1005 rosbridge's own words, which clients match on
			return fmt.Errorf("Message type %s does not have a field %s", typ, k)
		}
		if err := t.checkField(typ, *f, obj[k]); err != nil {
			return err
		}
	}
	return nil
}

func (t typedefs) checkField(typ string, f field, v any) error {
	if f.arrayLen < 0 {
		return t.checkValue(typ+"."+f.name, f.typ, v)
	}
	if s, ok := v.(string); ok && (f.typ == "uint8" || f.typ == "octet" || f.typ == "char") {
		_ = s // base64 text is how uint8[] travels
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		return fmt.Errorf("%s.%s: expected a list, got %T", typ, f.name, v)
	}
	if f.arrayLen > 0 && len(list) != f.arrayLen {
		return fmt.Errorf("%s.%s: expected %d elements, got %d", typ, f.name, f.arrayLen, len(list))
	}
	for i, e := range list {
		if err := t.checkValue(fmt.Sprintf("%s.%s[%d]", typ, f.name, i), f.typ, e); err != nil {
			return err
		}
	}
	return nil
}

func (t typedefs) checkValue(where, typ string, v any) error {
	switch typ {
	case "string":
		if _, ok := v.(string); !ok {
			return fmt.Errorf("%s: expected a string, got %T", where, v)
		}
	case "bool", "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s: expected a bool, got %T", where, v)
		}
	case "float", "float32", "double", "float64":
		if _, ok := v.(float64); !ok {
			return fmt.Errorf("%s: expected a number, got %T", where, v)
		}
	case "byte", "char", "octet", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64":
		n, ok := v.(float64)
		if !ok || n != math.Trunc(n) {
			return fmt.Errorf("%s: expected an integer, got %v", where, v)
		}
		if strings.HasPrefix(typ, "uint") && n < 0 {
			return fmt.Errorf("%s: expected an unsigned integer, got %v", where, v)
		}
	default:
		return t.check(typ, v)
	}
	return nil
}
