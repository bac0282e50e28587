package embodiments_test

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/embodiments"
)

func TestProfilesBundled(t *testing.T) {
	p := embodiments.Profiles()
	src, ok := p["household_sim"]
	if !ok {
		t.Fatalf("household_sim not bundled; have %v", p)
	}
	if !strings.Contains(src, "limits:") {
		t.Errorf("household_sim profile has no limits:\n%s", src)
	}
}
