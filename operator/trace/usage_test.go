package trace

import "testing"

// Usage is read by its JSON fields, so a provider's cached share shows as
// soon as model.Usage carries cached_input_tokens.
func TestReadUsageGeneric(t *testing.T) {
	u, ok := readUsage(map[string]int{"input_tokens": 2000, "output_tokens": 100, "cached_input_tokens": 1500})
	if !ok || u.String() != "2.0k in (75% cached) / 100 out" {
		t.Fatalf("usage = %v %q", ok, u.String())
	}
	if _, ok := readUsage(map[string]int{"input_tokens": 0}); ok {
		t.Fatal("an empty usage shows")
	}
	var nilPtr *struct{}
	if _, ok := readUsage(nilPtr); ok {
		t.Fatal("a nil usage shows")
	}
}
