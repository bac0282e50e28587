package script

import (
	"testing"

	"github.com/thea-harness/thea/internal/readfile/readfiletest"
	"github.com/thea-harness/thea/schema"
)

func TestScriptRefusesNonRegular(t *testing.T) {
	readfiletest.Refuses(t, "turns.yaml", func(path string) error {
		_, err := New(schema.Model{Provider: "script", Script: path}, "")
		return err
	})
}
