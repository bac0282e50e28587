package policies

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// readClearance calls the spec's clearance tool. Its value holds a distance
// in metres for every sector the embodiment declares (front, back, left and
// right by default), at the top level or under "clearance" (an
// observation-shaped reading).
func (p *Policy) readClearance(ctx context.Context) (world.Clearance, error) {
	tool := p.spec.Safety.ClearanceTool
	if tool == "" {
		return world.Clearance{}, errors.New("no clearance source is configured (safety.clearance_tool)")
	}
	if p.tools == nil {
		return world.Clearance{}, fmt.Errorf("clearance tool %q cannot be called: the policy has no tools", tool)
	}
	env := p.tools.Read(ctx, engine.PurposeReading, tool, map[string]any{})
	if !env.Success {
		return world.Clearance{}, fmt.Errorf("clearance reading from %q failed: %s", tool, env.Reason)
	}
	c, err := ParseClearance(env.Value, p.spec.Embodiment.Sectors())
	if err != nil {
		return world.Clearance{}, fmt.Errorf("clearance reading from %q: %w", tool, err)
	}
	return c, nil
}

// ParseClearance reads a clearance value: a distance for every declared
// sector (a missing or non-distance one makes the reading malformed, so
// rules fail closed); sectors not declared are ignored.
func ParseClearance(v map[string]any, sectors []schema.Sector) (world.Clearance, error) {
	if nested, ok := v["clearance"].(map[string]any); ok {
		v = nested
	}
	c := make(world.Clearance, len(sectors))
	for _, s := range sectors {
		raw, ok := v[s.Name]
		if !ok {
			return c, fmt.Errorf("malformed reading: sector %q is missing", s.Name)
		}
		x, ok := toFloat(raw)
		if !ok || math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return c, fmt.Errorf("malformed reading: %q is %v, not a distance", s.Name, raw)
		}
		c[s.Name] = x
	}
	return c, nil
}
