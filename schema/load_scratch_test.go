package schema_test

import (
	"os"
	"testing"

	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/schema"
)

func TestScratch(t *testing.T) {
	s, ds := schema.Load([]string{os.Getenv("SPEC")}, schema.LoadOptions{Profiles: embodiments.Profiles()})
	for _, d := range ds {
		t.Log(d)
	}
	if s != nil {
		t.Logf("%+v", s.Embodiment)
		t.Logf("%+v %v", s.Toolsets["sim"], s.Pos("tests[1]"))
	}
}
