package toolsets

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ArgumentChecker checks arguments against one tool's input schema the way
// the guard does before a call, with the same messages (the human provider
// refuses a bad argument before it becomes a call).
type ArgumentChecker struct {
	tool  string
	sch   *jsonschema.Schema
	props []string
}

// NewArgumentChecker compiles a tool's input schema (nil or empty: any
// object is accepted).
func NewArgumentChecker(tool string, inputSchema json.RawMessage) (*ArgumentChecker, error) {
	c := &ArgumentChecker{tool: tool}
	if len(inputSchema) == 0 {
		return c, nil
	}
	sch, props, err := compileSchema(tool, inputSchema)
	if err != nil {
		return nil, err
	}
	c.sch, c.props = sch, props
	return c, nil
}

// Check validates arguments typed as JSON text (empty means {}); the error
// says which argument is wrong and how.
func (c *ArgumentChecker) Check(text string) error {
	trimmed := bytes.TrimSpace([]byte(text))
	if len(trimmed) == 0 {
		trimmed = []byte("{}")
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(trimmed))
	if err != nil {
		return fmt.Errorf("the arguments of %s are not valid JSON (%v): type one JSON object", c.tool, err)
	}
	if _, ok := v.(map[string]any); !ok {
		return fmt.Errorf("the arguments of %s must be a JSON object, got %s", c.tool, jsonType(v))
	}
	if c.sch == nil {
		return nil
	}
	if err := c.sch.Validate(v); err != nil {
		var verr *jsonschema.ValidationError
		if errors.As(err, &verr) {
			return fmt.Errorf("invalid arguments for %s: %s", c.tool, describe(verr, c.props))
		}
		return fmt.Errorf("invalid arguments for %s: %w", c.tool, err)
	}
	return nil
}
