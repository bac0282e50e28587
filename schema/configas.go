package schema

import "fmt"

// ConfigAs is a component's own config, decoded once at load (Toolset,
// Model, PreHook, PostHook and User .Config), as the type T its descriptor
// registers. A config of any other type is an error, never a silent zero
// value: the component was handed a section that is not its own. nil is
// a section that gives none of the component's fields (a user section the
// spec leaves out, a section built in Go), which is T's zero value.
func ConfigAs[T any](cfg any) (T, error) {
	var zero T
	switch c := cfg.(type) {
	case nil:
		return zero, nil
	case T:
		return c, nil
	default:
		return zero, fmt.Errorf("its config is a %T, not the %T its component registers", cfg, zero)
	}
}
