package engine

import "context"

// Stage is one step of the turn pipeline. Stages run in the order the spec's
// loop.stages gives; they act on the turn only through *Turn's methods.
type Stage interface {
	Name() string
	Run(ctx context.Context, t *Turn) error
}
