package trace

import (
	"fmt"
	"strings"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/termesc"
)

// RetryText is one retried attempt of a model call in a line: who failed,
// how, the provider's message, and the wait before the next attempt. The
// message is escaped (a provider wrote it).
func RetryText(r model.Retry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s attempt %d failed", termesc.Escape(r.Provider), r.Attempt)
	if r.Purpose != "" && r.Purpose != model.PurposeDecide {
		fmt.Fprintf(&b, " (%s call)", termesc.Escape(string(r.Purpose)))
	}
	if r.Status != 0 {
		fmt.Fprintf(&b, ": HTTP %d", r.Status)
	}
	if r.Message != "" {
		b.WriteString(": " + oneLine(r.Message, 160))
	}
	fmt.Fprintf(&b, "; retrying in %s", r.Wait())
	if r.RetryAfter {
		b.WriteString(" (the server's Retry-After)")
	}
	return b.String()
}
