package policies

import (
	"context"
	"errors"
	"fmt"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/rules"
	"github.com/thea-harness/thea/schema"
)

// freshOnce takes the fresh readings a pre-chain's rules read, after the
// model's decision and immediately before the call: the clearance and the
// named safety readings, each at most once per chain, and remembers each
// outcome, so every hook of the chain judges the same reading.
type freshOnce struct {
	policy    *Policy
	env       *schema.CallEnv
	clearance taking
	readings  taking
}

// taking is one reading's outcome: taken once, then remembered.
type taking struct {
	taken bool
	err   error
}

func (t *taking) once(read func() error) error {
	if !t.taken {
		t.taken = true
		t.err = read()
	}
	return t.err
}

// take takes what the expressions of a hook read (clearance, readings), each
// at most once per chain.
func (o *freshOnce) take(ctx context.Context, clearance, readings bool) error {
	if clearance {
		err := o.clearance.once(func() error {
			c, err := o.policy.readClearance(ctx)
			if err != nil {
				return err
			}
			o.env.Clearance = schema.NewClearanceEnv(c, o.policy.spec.Embodiment.Sectors(), o.env.Limits)
			return nil
		})
		if err != nil {
			return err
		}
	}
	if readings {
		return o.readings.once(func() error {
			r, err := o.policy.readReadings(ctx)
			if err != nil {
				return err
			}
			o.env.Readings = r
			return nil
		})
	}
	return nil
}

// readReadings calls the spec's readings tool (safety.readings.tool): every
// declared reading must be in its value, of its type, with its age.
func (p *Policy) readReadings(ctx context.Context) (rules.ReadingsEnv, error) {
	rd := p.spec.Safety.Readings
	if rd == nil || rd.Tool == "" {
		return rules.ReadingsEnv{}, errors.New("no safety readings are configured (safety.readings)")
	}
	if p.tools == nil {
		return rules.ReadingsEnv{}, fmt.Errorf("readings tool %q cannot be called: the policy has no tools", rd.Tool)
	}
	env := p.tools.Read(ctx, engine.PurposeReading, rd.Tool, map[string]any{})
	if !env.Success {
		return rules.ReadingsEnv{}, fmt.Errorf("safety readings from %q failed: %s", rd.Tool, env.Reason)
	}
	r, err := rules.NewReadingsEnv(env.Value, rd.Values)
	if err != nil {
		return rules.ReadingsEnv{}, fmt.Errorf("safety readings from %q: %w", rd.Tool, err)
	}
	return r, nil
}
