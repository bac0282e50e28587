package scaffold

import "fmt"

// Rule tests of a draft's hooks, each a call of a drafted physical tool:
// a safe, confirmed call passes; each reading at its unsafe value, a
// missing reading, no clearance and an unconfirmed call are each blocked
// by their hook.

// ruleTests are the tests, each one line of CUE.
func (d *draft) ruleTests() []raw {
	call, ok := d.firstTool(func(t draftTool) bool { return t.Physical })
	if !ok {
		return nil
	}
	clear := inline("front", 2.0, "back", 2.0, "left", 2.0, "right", 2.0)
	test := func(name string, t draftTool, clearance raw, readings raw, confirm bool, expect raw) raw {
		kv := []any{"name", name, "call", inline("tool", t.Name, "args", sampleArgs(t))}
		if d.Clearance != "" {
			kv = append(kv, "clearance", clearance)
		}
		if len(d.Readings) > 0 {
			kv = append(kv, "readings", readings)
		}
		kv = append(kv, "confirm", confirm, "expect", expect)
		return inline(kv...)
	}
	safe := d.readingValues("")
	out := []raw{
		test("a safe, confirmed call passes", call, clear, safe, true, inline("verdict", "allow")),
		test("an unconfirmed call is refused until the spec is reviewed", call, clear, safe, false,
			inline("verdict", "block", "hook", "review_confirm")),
	}
	for _, r := range d.Readings {
		out = append(out, test(fmt.Sprintf("%s unsafe blocks a motion", r.Topic), call, clear, d.readingValues(r.Name), true,
			inline("verdict", "block", "hook", "reading_"+r.Name)))
	}
	if len(d.Readings) > 0 {
		out = append(out, test("no reading (a silent or stale topic) blocks a motion", call, clear, inline(), true,
			inline("verdict", "block", "hook", "reading_"+d.Readings[0].Name, "reason_contains", "missing")))
	}
	if base, ok := d.firstTool(func(t draftTool) bool { return t.Physical && t.BaseMotion }); ok && d.Clearance != "" {
		boxed := inline("front", 0.1, "back", 0.1, "left", 0.1, "right", 0.1)
		out = append(out, test("boxed in: base motion is blocked", base, boxed, safe, true, inline("verdict", "block", "hook", "boxed_in")))
	}
	return out
}

func (d *draft) firstTool(ok func(draftTool) bool) (draftTool, bool) {
	for _, t := range d.Tools {
		if !t.Disabled && ok(t) {
			return t, true
		}
	}
	return draftTool{}, false
}

// readingValues is every reading at a safe value, but unsafe at its own.
func (d *draft) readingValues(unsafe string) raw {
	var kv []any
	for _, r := range d.Readings {
		bad := r.Name == unsafe
		switch {
		case r.Bool:
			kv = append(kv, r.Name, r.SafeWhen != bad)
		case bad:
			kv = append(kv, r.Name, distanceThreshold/2)
		default:
			kv = append(kv, r.Name, distanceThreshold*3)
		}
	}
	return inline(kv...)
}

// sampleArgs are values for a tool's required arguments.
func sampleArgs(t draftTool) raw {
	var kv []any
	for _, a := range t.Args {
		if a.Optional {
			continue
		}
		switch a.Type {
		case "number":
			kv = append(kv, a.Name, 0.5)
		case "integer":
			kv = append(kv, a.Name, 0)
		case "boolean":
			kv = append(kv, a.Name, false)
		case "array":
			kv = append(kv, a.Name, list())
		default:
			kv = append(kv, a.Name, "")
		}
	}
	return inline(kv...)
}
