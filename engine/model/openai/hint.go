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
		return fmt.Sprintf("%q (family %s) got %s: set model.wire.token_limit_field: %q, or model.wire.family if the model belongs to one (%s)",
			m.name, m.shape.family, param, other, familyList())
	case "temperature":
		return fmt.Sprintf("%q (family %s) refuses the temperature it got: set model.wire.temperature: \"omit\", or model.wire.family if the model belongs to one (%s)",
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
