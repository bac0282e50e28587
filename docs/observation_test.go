package docs

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/thea-harness/thea/world"
)

// The back-end contract's Observation table lists exactly the fields the
// harness decodes (world.Fields), in its order, and every example
// observation on the page decodes.
func TestObservationTableIsTheOneList(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("formats", "backend-contract.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	_, table, ok := strings.Cut(text, "**The Observation**")
	if !ok {
		t.Fatal("formats/backend-contract.md has no **The Observation** table")
	}
	table, _, _ = strings.Cut(table, "\n\n## ")
	row := regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\|")
	var listed []string
	for _, m := range row.FindAllStringSubmatch(table, -1) {
		listed = append(listed, m[1])
	}
	if want := world.Fields(); !slices.Equal(listed, want) {
		t.Errorf("the Observation table lists %v\nthe harness decodes %v", listed, want)
	}
	_, examples, _ := strings.Cut(text, "## An example observation")
	examples, _, _ = strings.Cut(examples, "\n## ")
	block := regexp.MustCompile("(?s)```json\n(.*?)```")
	found := 0
	for _, m := range block.FindAllStringSubmatch(examples, -1) {
		found++
		if _, err := world.Decode([]byte(m[1])); err != nil {
			t.Errorf("example observation %d: %v\n%s", found, err, m[1])
		}
	}
	if found < 2 {
		t.Errorf("%d example observations, want a base's and an arm's", found)
	}
}
