package engine

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/thea-harness/thea/internal/anyjson"
)

// parsedArgs is the executed call's arguments as decide parsed them, once:
// the model event keeps this value, execute takes a copy of it (hooks may
// rewrite the arguments in place, and the model event must keep the
// arguments the model sent), and the tool guard validates that copy
// instead of parsing the bytes again.
type parsedArgs struct {
	value map[string]any
	err   error
}

func parseArgsOnce(raw json.RawMessage) parsedArgs {
	v, err := parseArgs(raw)
	return parsedArgs{value: v, err: err}
}

// parseArgs decodes a call's arguments; they must be a JSON object (empty
// means no arguments). Numbers are float64, as json.Unmarshal gives them.
func parseArgs(raw json.RawMessage) (map[string]any, error) {
	if len(raw) == 0 {
		return map[string]any{}, nil
	}
	v, err := anyjson.Unmarshal(raw, anyjson.Float64)
	if err != nil {
		return nil, fmt.Errorf("want a JSON object: %w", err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		if s, isString := v.(string); isString {
			if err := malformed(s); err != nil {
				return nil, err
			}
		}
		return nil, fmt.Errorf("want a JSON object, got %s", anyjson.Kind(v))
	}
	return m, nil
}

// malformed says why argument text a provider could not read as JSON (it
// hands such text on as a JSON string, see model.ArgumentsFromText) is not
// a JSON object: text that opens an object or an array but does not parse
// (cut short, or nested past the decoder's depth limit) gets the decoder's
// reason, not "got a string".
func malformed(s string) error {
	text := bytes.TrimSpace([]byte(s))
	if len(text) == 0 || (text[0] != '{' && text[0] != '[') {
		return nil
	}
	if _, err := anyjson.Unmarshal(text, anyjson.Float64); err != nil {
		return fmt.Errorf("want a JSON object: the arguments are not valid JSON: %w", err)
	}
	return nil
}

// cloneValue copies a value json.Unmarshal built into an any: maps and
// slices are copied, strings, numbers, booleans and nil are immutable.
func cloneValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return x
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = cloneValue(e)
		}
		return out
	case []any:
		if x == nil {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = cloneValue(e)
		}
		return out
	}
	return v
}
