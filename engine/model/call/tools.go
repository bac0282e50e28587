package call

import (
	"encoding/json"
	"fmt"

	"github.com/thea-harness/thea/engine/model"
	"github.com/tmc/langchaingo/llms"
)

// emptySchema is the input schema of a tool that declares none.
const emptySchema = `{"type":"object","properties":{}}`

// Tools renders a request's tool definitions as langchaingo function tools,
// each under its wire name (names): the one rendering every adapter built
// on langchaingo sends. A tool with no schema gets an empty object's; one
// whose schema is not JSON is an error naming it.
func Tools(defs []model.ToolDef, names model.ToolNames) ([]llms.Tool, error) {
	tools := make([]llms.Tool, 0, len(defs))
	for _, d := range defs {
		params := d.InputSchema
		if len(params) == 0 || string(params) == "null" {
			params = json.RawMessage(emptySchema)
		} else if !json.Valid(params) {
			return nil, fmt.Errorf("tool %q: input schema is not valid JSON", d.Name)
		}
		tools = append(tools, llms.Tool{Type: "function", Function: &llms.FunctionDefinition{
			Name: names.Wire(d.Name), Description: d.Description, Parameters: params,
		}})
	}
	return tools, nil
}
