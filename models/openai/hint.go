package openai

import (
	"fmt"
	"strings"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/model/call"
)

// paramHint says what to change in the spec when the server blames a field
// of the request: the token-limit field or the temperature (the family table
// did not know the model: model.wire says it), or a tool definition (named
// by the tool, not its index).
func (m *Model) paramHint(param string, defs []model.ToolDef) string {
	switch param {
	case "":
		return ""
	case fieldMaxTokens, fieldMaxCompletionTokens:
		other := fieldMaxCompletionTokens
		if param == fieldMaxCompletionTokens {
			other = fieldMaxTokens
		}
		return fmt.Sprintf("the server refuses %s for %q (family %s): set model.wire.token_limit_field: %q, or model.wire.family to the model's family (%s)",
			param, m.name, m.shape.family, other, familyList())
	case "temperature":
		return fmt.Sprintf("the server refuses the temperature for %q (family %s): set model.wire.temperature: \"omit\", or model.wire.family to the model's family (%s)",
			m.name, m.shape.family, familyList())
	}
	if i, ok := call.ParamTool(param); ok && i < len(defs) {
		name := defs[i].Name
		if w := model.WireToolName(name); w != name {
			return fmt.Sprintf("the field is in the tool %q (sent as %q)", name, w)
		}
		return fmt.Sprintf("the field is in the tool %q", name)
	}
	return ""
}

func familyList() string { return strings.Join(familyNames(), ", ") }
