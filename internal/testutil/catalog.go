package testutil

import (
	"testing"

	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/schema"
)

// Catalog is the validation view of the catalog this build ships, as the
// CLI loads specs with.
func Catalog(t testing.TB) *schema.Catalog {
	t.Helper()
	c, err := components.Default(components.Deps{})
	if err != nil {
		t.Fatal(err)
	}
	return c.Schema()
}
