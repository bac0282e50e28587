package engine

import (
	"context"

	"github.com/thea-harness/thea/schema"
)

// Stage is one step of the turn pipeline. Stages run in the order the spec's
// loop.stages gives; they act on the turn only through *Turn's methods.
type Stage interface {
	Name() string
	Run(ctx context.Context, t *Turn) error
}

// StageFactory builds a stage for a spec.
type StageFactory func(spec *schema.Spec) (Stage, error)
