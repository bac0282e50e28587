package schema_test

import (
	"testing"

	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/schema"
)

// buildDescriptors are the descriptors of the components this build ships, as the CLI loads specs with.
func buildDescriptors(t testing.TB) *schema.Descriptors {
	t.Helper()
	c, err := components.Default(components.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c.Descriptors()
}
