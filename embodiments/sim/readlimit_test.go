package sim

import (
	"testing"

	"github.com/thea-harness/thea/internal/readfile/readfiletest"
)

func TestLoadWorldRefusesNonRegular(t *testing.T) {
	readfiletest.Refuses(t, "world.yaml", func(path string) error {
		_, err := LoadWorld(t.Context(), path)
		return err
	})
}
