package toolsets

import (
	"encoding/json"
	"strings"
	"testing"
)

// A tool's name only labels its schema: names a URL would misread ("#", "%",
// "?") compile like any other and still validate arguments.
func TestCompileSchemaOddToolNames(t *testing.T) {
	for _, name := range []string{"grip#2", "p%zz", "a?b", "a b", "nav/to"} {
		sch, _, err := compileSchema(name, json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`))
		if err != nil {
			t.Errorf("%q: %v", name, err)
			continue
		}
		if err := sch.Validate(map[string]any{"x": 1.0}); err == nil || !strings.Contains(err.Error(), "string") {
			t.Errorf("%q: schema does not validate: %v", name, err)
		}
	}
}
