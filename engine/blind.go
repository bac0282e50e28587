package engine

import (
	"strconv"

	"github.com/thea-harness/thea/world"
)

// A blind session (Options.Blind) is the ablation that measures what the
// acting model gets from seeing: the Refreshed tail says the observation
// is withheld, with no Scene Graph Brief (built from observations) and no
// camera image, and tool results reach the model without their images.
// Everything else is as in any session: the observe stage still reads the
// observation tool every turn, hooks read it (observation, before), the
// evaluator reads its evidence, and the run log records it all, so only
// the model's view changes.

// withheldObservation stands in for turn's observation in a blind session.
func withheldObservation(turn int) string {
	return "Observation (turn " + strconv.Itoa(turn) + "): withheld (a blind evaluation: the model is given no observation and no camera image)."
}

// modelImages are a tool result's images as the model receives them: none
// in a blind session.
func modelImages(images []world.Image, blind bool) []world.Image {
	if blind {
		return nil
	}
	return images
}
