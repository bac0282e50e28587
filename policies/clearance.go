package policies

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/thea-harness/thea/schema"
)

// clearanceOnce takes at most one fresh clearance reading per pre-chain and
// remembers its outcome, so every hook of the chain judges the same reading.
type clearanceOnce struct {
	policy *Policy
	env    *schema.CallEnv
	taken  bool
	err    error
}

func (o *clearanceOnce) take(ctx context.Context) error {
	if o.taken {
		return o.err
	}
	o.taken = true
	c, err := o.policy.readClearance(ctx)
	if err != nil {
		o.err = err
		return err
	}
	o.env.Clearance = schema.NewClearanceEnv(c, o.policy.spec.Embodiment.Limits)
	return nil
}

// readClearance calls the spec's clearance tool. Its value holds front, back,
// left and right in metres, at the top level or under "clearance" (an
// observation-shaped reading).
func (p *Policy) readClearance(ctx context.Context) (schema.Clearance, error) {
	tool := p.spec.Safety.ClearanceTool
	if tool == "" {
		return schema.Clearance{}, errors.New("no clearance source is configured (safety.clearance_tool)")
	}
	if p.tools == nil {
		return schema.Clearance{}, fmt.Errorf("clearance tool %q cannot be called: the policy has no tools", tool)
	}
	env := p.tools.CallTool(ctx, tool, map[string]any{})
	if !env.Success {
		return schema.Clearance{}, fmt.Errorf("clearance reading from %q failed: %s", tool, env.Reason)
	}
	c, err := parseClearance(env.Value)
	if err != nil {
		return schema.Clearance{}, fmt.Errorf("clearance reading from %q: %w", tool, err)
	}
	return c, nil
}

func parseClearance(v map[string]any) (schema.Clearance, error) {
	if nested, ok := v["clearance"].(map[string]any); ok {
		v = nested
	}
	var c schema.Clearance
	for _, f := range []struct {
		name string
		dst  *float64
	}{{"front", &c.Front}, {"back", &c.Back}, {"left", &c.Left}, {"right", &c.Right}} {
		raw, ok := v[f.name]
		if !ok {
			return c, fmt.Errorf("malformed reading: %q is missing", f.name)
		}
		x, ok := toFloat(raw)
		if !ok || math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return c, fmt.Errorf("malformed reading: %q is %v, not a distance", f.name, raw)
		}
		*f.dst = x
	}
	return c, nil
}
