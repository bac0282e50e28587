package schema_test

import (
	"testing"

	"github.com/thea-harness/thea/internal/testutil"
	"github.com/thea-harness/thea/schema"
)

// buildCatalog is the catalog this build ships, as the CLI loads specs with.
func buildCatalog(t testing.TB) *schema.Catalog { return testutil.Catalog(t) }
