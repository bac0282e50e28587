package reference_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/thea-harness/thea/components/componentstest"
	"github.com/thea-harness/thea/schema/reference"
)

// committed is the reference as the repository holds it.
var committed = filepath.Join("..", "..", "docs", "reference", "spec.md")

// TestReferenceUpToDate fails when the committed reference is not what the
// schema and this build's catalog generate: a field, default, doc comment
// or component changed without `make docs`.
func TestReferenceUpToDate(t *testing.T) {
	want, err := reference.Markdown(componentstest.Descriptors(t))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(committed)
	if err != nil {
		t.Fatalf("reading the committed reference: %v (run `%s` to write it)", err, reference.Command)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("docs/reference/spec.md is out of date: run `%s` and commit the result\n%s", reference.Command, firstDifference(got, want))
	}
}

// firstDifference names the first line where the committed file and the
// generated one part.
func firstDifference(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n  committed: %s\n  generated: %s", i+1, gl, wl)
		}
	}
	return "they differ"
}

var (
	idAttr  = regexp.MustCompile(`id="([^"]+)"`)
	heading = regexp.MustCompile(`(?m)^#+ (.+)$`)
)

// anchors are the link targets of a reference: field ids and headings.
func anchors(md string) map[string]bool {
	out := map[string]bool{}
	for _, m := range idAttr.FindAllStringSubmatch(md, -1) {
		out[m[1]] = true
	}
	for _, m := range heading.FindAllStringSubmatch(md, -1) {
		out[slug(m[1])] = true
	}
	return out
}

// slug is GitHub's heading anchor, computed here independently of the
// generator's.
func slug(s string) string {
	s = strings.ToLower(s)
	s = regexp.MustCompile(`[^a-z0-9 _-]`).ReplaceAllString(s, "")
	return strings.ReplaceAll(s, " ", "-")
}

// TestReferenceLinks requires one anchor per name and a target for every
// link inside the reference, so pages linking into it keep working.
func TestReferenceLinks(t *testing.T) {
	md, err := reference.Markdown(componentstest.Descriptors(t))
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, m := range idAttr.FindAllStringSubmatch(string(md), -1) {
		count[m[1]]++
	}
	for _, m := range heading.FindAllStringSubmatch(string(md), -1) {
		count[slug(m[1])]++
	}
	for a, n := range count {
		if n > 1 {
			t.Errorf("anchor %q is defined %d times", a, n)
		}
	}
	for _, m := range regexp.MustCompile(`\]\(#([^)]+)\)`).FindAllStringSubmatch(string(md), -1) {
		if count[m[1]] == 0 {
			t.Errorf("link to #%s has no target", m[1])
		}
	}
}
