package episode

import (
	"fmt"

	"github.com/expr-lang/expr/vm"

	"github.com/thea-harness/thea/rules"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// ResetCheck is the task's success as a check over an observation (thea
// eval --success-at-reset EXPR), judged on an episode's first observation:
// the one the observe stage reads before the model's first decision. When
// it holds, the task was done before the model did anything, so the
// episode says nothing about the model: it is flagged and left out of the
// rates.
type ResetCheck struct {
	Source  string
	program *vm.Program
}

// NewResetCheck compiles src against the spec as a tool's check is
// compiled: a boolean expr reading after (the first observation) and
// limits.
func NewResetCheck(spec *schema.Spec, src string) (*ResetCheck, error) {
	p, err := schema.CompileObservationCheck(spec, src)
	if err != nil {
		return nil, err
	}
	return &ResetCheck{Source: src, program: p}, nil
}

// holds judges the check on obs. A value the observation lacks is not
// success (an episode is left out only when its success is known to have
// held), and neither is a check that cannot be evaluated: that one is an
// error, reported with the episode.
func (c *ResetCheck) holds(spec *schema.Spec, obs world.Observation) (bool, error) {
	env := schema.CheckEnv{Before: obs, After: obs, Limits: spec.Embodiment.Limits}
	out, err := rules.Run(nil, c.program, &env)
	if rules.Missing(err) != nil {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("success_at_reset check %q: %w", c.Source, err)
	}
	ok, _ := out.(bool)
	return ok, nil
}
