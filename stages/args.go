package stages

import (
	"encoding/json"

	"github.com/thea-harness/thea/engine"
)

// firstArgs parses the arguments of the turn's first call once: decide
// keeps what it parsed for its event, execute takes a copy of it (hooks may
// rewrite the arguments in place, and the model event must keep the
// arguments the model sent).
func firstArgs(t *engine.Turn, raw json.RawMessage) (map[string]any, error) {
	if p, ok := t.DecisionArgs(raw); ok {
		if p.Err != nil {
			return nil, p.Err
		}
		return cloneValue(p.Value).(map[string]any), nil
	}
	return parseArgs(raw)
}

// keepArgs parses the first call's arguments for decide and keeps them for
// execute; the returned map is decide's own.
func keepArgs(t *engine.Turn, raw json.RawMessage) (map[string]any, error) {
	args, err := parseArgs(raw)
	t.KeepDecisionArgs(raw, engine.ParsedArgs{Value: args, Err: err})
	return args, err
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
