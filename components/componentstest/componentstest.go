// Package componentstest gives tests the components this build ships, as the
// CLI builds them, so a test that loads a spec validates it exactly as
// `thea validate` would. It sits beside components (not in internal/testutil,
// which imports nothing of Thea) so no helper runs back up the layers.
package componentstest

import (
	"testing"

	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// Default is every component this build ships, with default options.
func Default(t testing.TB) *engine.Components {
	t.Helper()
	c, err := components.Default(components.Options{})
	if err != nil {
		t.Fatalf("building the components: %v", err)
	}
	return c
}

// Descriptors is what validation knows of Default's components.
func Descriptors(t testing.TB) *schema.Descriptors {
	t.Helper()
	return Default(t).Descriptors()
}
