package schema_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/internal/readfile/readfiletest"
	"github.com/thea-harness/thea/schema"
)

// TestLoadRefusesNonRegular: a spec that is a FIFO, /dev/zero or /dev/urandom
// is a diagnostic at once (without the check: a hang, or gigabytes read).
func TestLoadRefusesNonRegular(t *testing.T) {
	readfiletest.Refuses(t, "spec.yaml", func(path string) error {
		_, diags := schema.Load([]string{path}, schema.LoadOptions{Catalog: buildCatalog(t)})
		if len(diags) == 0 {
			return nil
		}
		return errors.New(diags[0].String())
	})
}

func TestLoadRefusesHugeSpec(t *testing.T) {
	path := filepath.Join(t.TempDir(), "spec.yaml")
	if err := os.WriteFile(path, []byte("name: x\n"+strings.Repeat("#\n", 2<<20+1)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, diags := schema.Load([]string{path}, schema.LoadOptions{Catalog: buildCatalog(t)})
	if len(diags) == 0 || !strings.Contains(diags[0].String(), "larger than 4 MiB") {
		t.Fatalf("got %v", diags)
	}
}
