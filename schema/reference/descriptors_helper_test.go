package reference_test

import (
	"testing"

	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/schema"
)

// buildDescriptors is what validation knows of the components this build
// ships: the reference is generated from it.
func buildDescriptors(t testing.TB) *schema.Descriptors {
	t.Helper()
	c, err := components.Default(components.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c.Descriptors()
}
