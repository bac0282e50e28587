package scaffold

import (
	"fmt"

	"github.com/thea-harness/thea/internal/readfile"
)

// A draft stays within what a spec file may hold (readfile.Spec's size):
// rosapi may describe 64 endpoints of 512 fields each, and a REVIEW line
// for every field left at its default would make megabytes of comments
// (a tool takes at most maxArgs arguments, so its fields are bounded
// already). Each tool keeps its first REVIEW lines and a count of the rest.

// maxToolReview bounds the REVIEW lines of one drafted tool.
const maxToolReview = 12

// bound summarizes each tool's REVIEW lines past maxToolReview in one.
func (d *draft) bound() {
	for i := range d.Tools {
		t := &d.Tools[i]
		if len(t.Review) <= maxToolReview {
			continue
		}
		rest := len(t.Review) - (maxToolReview - 1)
		t.Review = append(t.Review[:maxToolReview-1:maxToolReview-1],
			fmt.Sprintf("… and %d more notes like these, left out to keep the draft within a spec file's size: read the definition of %s (%s) for the fields left at their defaults", rest, safeText(t.ROSName), safeText(t.Type)))
	}
}

// checkSize refuses a written draft larger than a spec file may be, which
// thea validate would refuse to read: said here, before anything is
// written, rather than left for validate to find.
func checkSize(spec []byte) error {
	if limit := readfile.Spec.Max(); int64(len(spec)) > limit {
		return fmt.Errorf("the drafted spec is %d bytes, more than a %s may be (%s): the graph's definitions are too large to draft", len(spec), readfile.Spec, readfile.Human(limit))
	}
	return nil
}
