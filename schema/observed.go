package schema

import (
	"github.com/thea-harness/thea/rules"
	"github.com/thea-harness/thea/world"
)

// An Observation knows which of its fields a back-end sent, so a rule that
// reads one it did not send fails closed.
var _ rules.Observed = world.Observation{}
