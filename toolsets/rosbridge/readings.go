package rosbridge

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/expr-lang/expr/vm"
	"github.com/thea-harness/thea/runlog"
)

// The safety readings tool: named readings from any topic (a light curtain
// on a Bool, a person distance on a Float32, a Range), each the topic's
// latest message within its own max_age when the tool is called. A safety
// hook calls it after the model's decision, immediately before a physical
// call (safety.readings in the spec); a reading that is missing, stale or
// null fails the whole tool, so the hook blocks with the reason.

// readingDefaults are the message types a reading has a default value for.
var readingDefaults = map[string]string{
	"std_msgs/msg/Bool":    "msg.data",
	"std_msgs/msg/Float32": "msg.data", "std_msgs/msg/Float64": "msg.data",
	"std_msgs/msg/Int8": "msg.data", "std_msgs/msg/Int16": "msg.data", "std_msgs/msg/Int32": "msg.data", "std_msgs/msg/Int64": "msg.data",
	"std_msgs/msg/UInt8": "msg.data", "std_msgs/msg/UInt16": "msg.data", "std_msgs/msg/UInt32": "msg.data", "std_msgs/msg/UInt64": "msg.data",
	"sensor_msgs/msg/Range": "msg.range",
}

// readingValue is a reading's value expr: declared, else its type's default.
func readingValue(d ReadingDecl) (string, bool) {
	if d.Value != "" {
		return d.Value, true
	}
	v, ok := readingDefaults[d.Type]
	return v, ok
}

// compileReadings compiles each reading's value expr; a type with no
// default value needs one.
func (p *plan) compileReadings(reserved map[string]string, fail func(path, format string, args ...any)) {
	r := p.cfg.Readings
	p.readings = map[string]*vm.Program{}
	if r == nil {
		return
	}
	if prev, ok := reserved[r.Tool]; ok {
		fail("readings.tool", "%q is already %s", r.Tool, prev)
	}
	reserved[r.Tool] = "readings.tool"
	if len(r.Sources) == 0 {
		fail("readings.sources", "declare at least one reading (a name, its topic and type)")
	}
	for _, name := range slices.Sorted(maps.Keys(r.Sources)) {
		d := r.Sources[name]
		at := "readings.sources." + name
		src, ok := readingValue(d)
		if !ok {
			fail(at+".type", "%s has no default value (std_msgs Bool and numbers read msg.data, sensor_msgs/msg/Range msg.range): give value, an expr over msg", d.Type)
			continue
		}
		prog, err := compileExpr(src, "msg", nil, at+".value")
		if err != nil {
			fail(at+".value", "%s", strings.TrimPrefix(err.Error(), at+".value: "))
			continue
		}
		p.readings[name] = prog
	}
}

// readingsTool answers every declared reading, each from its topic's
// latest message younger than its max_age (waiting up to max_age for one),
// with the ages in seconds: {readings: {name: value}, age_s: {name: s}}.
func (c *conn) readingsTool(ctx context.Context) (runlog.Envelope, error) {
	r := c.b.plan.cfg.Readings
	values := map[string]any{}
	ages := map[string]any{}
	for _, name := range slices.Sorted(maps.Keys(r.Sources)) {
		v, age, err := c.reading(ctx, name, r.Sources[name])
		if err != nil {
			if ctx.Err() != nil {
				return runlog.Envelope{}, fmt.Errorf("%s: %w", r.Tool, ctx.Err())
			}
			return runlog.Failure(fmt.Sprintf("%s: reading %s: %v", r.Tool, name, err)), nil
		}
		values[name] = v
		ages[name] = round3(age.Seconds())
	}
	return runlog.Envelope{Success: true, Value: map[string]any{"readings": values, "age_s": ages}}, nil
}

// reading is one reading's value and age: the latest message of its topic
// within max_age, or an error naming the topic and how old its message is.
func (c *conn) reading(ctx context.Context, name string, d ReadingDecl) (any, time.Duration, error) {
	maxAge := duration(d.MaxAge)
	m, err := c.fresh(ctx, d.Topic, time.Now().Add(-maxAge), maxAge)
	if err != nil {
		if last, ok := c.cl.Latest(d.Topic); ok {
			return nil, 0, fmt.Errorf("the latest message on %s is %s old, older than its max_age %s", d.Topic, last.Age(time.Now()).Round(time.Millisecond), maxAge)
		}
		return nil, 0, err
	}
	// The message may have aged while another reading was waited for: the
	// latest one now is the reading.
	if last, ok := c.cl.Latest(d.Topic); ok {
		m = last
	}
	age := m.Age(time.Now())
	if age > maxAge {
		return nil, 0, fmt.Errorf("the latest message on %s is %s old, older than its max_age %s", d.Topic, age.Round(time.Millisecond), maxAge)
	}
	var msg any
	if err := json.Unmarshal(m.Data, &msg); err != nil {
		return nil, 0, fmt.Errorf("%s: %w", d.Topic, err)
	}
	v, err := run(c.b.plan.readings[name], "msg", msg)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", d.Topic, err)
	}
	if v == nil {
		return nil, 0, fmt.Errorf("%s gave no value (null: rosbridge sends NaN and inf as null), which is not a reading", d.Topic)
	}
	if f, ok := v.(float64); ok && (math.IsNaN(f) || math.IsInf(f, 0)) {
		return nil, 0, fmt.Errorf("%s gave %v, which is not a reading", d.Topic, f)
	}
	return v, age, nil
}

// readingsDescription is the readings tool's description for the model.
func readingsDescription(r *ReadingsDecl) string {
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(r.Sources)) {
		parts = append(parts, name+" ("+r.Sources[name].Topic+")")
	}
	return "The robot's safety readings now, each with its age in seconds: " + strings.Join(parts, ", ") + "."
}
