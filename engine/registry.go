package engine

import (
	"fmt"
	"slices"
	"sort"
)

// Registry maps names used in a spec to implementations. Registries are
// explicit values built by the caller (no init side effects).
type Registry[T any] struct {
	kind string
	m    map[string]T
}

// NewRegistry makes an empty registry; kind names it in errors ("stage").
func NewRegistry[T any](kind string) *Registry[T] {
	return &Registry[T]{kind: kind, m: map[string]T{}}
}

// Register adds an implementation; a duplicate name is an error.
func (r *Registry[T]) Register(name string, v T) error {
	if _, ok := r.m[name]; ok {
		return fmt.Errorf("%s %q registered twice", r.kind, name)
	}
	r.m[name] = v
	return nil
}

// Lookup finds an implementation by name.
func (r *Registry[T]) Lookup(name string) (T, error) {
	v, ok := r.m[name]
	if !ok {
		var zero T
		return zero, fmt.Errorf("unknown %s %q (known: %v)", r.kind, name, r.Names())
	}
	return v, nil
}

// Names lists the registered names, sorted.
func (r *Registry[T]) Names() []string {
	names := make([]string, 0, len(r.m))
	for k := range r.m {
		names = append(names, k)
	}
	sort.Strings(names)
	return slices.Clip(names)
}
