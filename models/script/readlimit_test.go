package script

import (
	"testing"

	"github.com/thea-harness/thea/internal/readfile/readfiletest"
)

func TestScriptRefusesNonRegular(t *testing.T) {
	readfiletest.Refuses(t, "turns.yaml", func(path string) error {
		_, err := New(Config{Script: path}, "")
		return err
	})
}
