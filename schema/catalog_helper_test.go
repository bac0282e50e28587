package schema_test

import (
	"testing"

	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/schema"
)

// buildCatalog is the catalog this build ships, as the CLI loads specs with.
func buildCatalog(t testing.TB) *schema.Catalog {
	t.Helper()
	c, err := components.Default(components.Deps{})
	if err != nil {
		t.Fatal(err)
	}
	return c.Schema()
}
