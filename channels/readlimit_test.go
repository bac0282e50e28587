package channels

import (
	"testing"

	"github.com/thea-harness/thea/internal/readfile/readfiletest"
)

func TestAnswersRefusesNonRegular(t *testing.T) {
	readfiletest.Refuses(t, "answers.yaml", func(path string) error {
		_, err := LoadScript(path)
		return err
	})
}
