package human

import (
	"fmt"
	"strings"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/termesc"
)

// maxPartChars bounds one text part on the screen; the rest is elided.
const maxPartChars = 4000

// writeMessage prints one message, escaped for the terminal, images as
// placeholders.
func writeMessage(b *strings.Builder, m model.Message) {
	fmt.Fprintf(b, "── %s", m.Role)
	if m.ToolCallID != "" {
		fmt.Fprintf(b, " (answers %s)", termesc.Escape(m.ToolCallID))
	}
	b.WriteString("\n")
	for _, p := range m.Parts {
		if p.Image != nil {
			fmt.Fprintf(b, "[image: %s camera, %s, %dx%d]\n", termesc.Escape(p.Image.Camera), termesc.Escape(p.Image.MIME), p.Image.Width, p.Image.Height)
			continue
		}
		writeText(b, p.Text)
	}
	for _, c := range m.ToolCalls {
		fmt.Fprintf(b, "→ call %s %s\n", termesc.Escape(c.Name), termesc.Escape(c.RawArguments()))
	}
}

// writeText prints untrusted text line by line, each line escaped.
func writeText(b *strings.Builder, s string) {
	if len(s) > maxPartChars {
		s = s[:maxPartChars] + fmt.Sprintf("… (%d more characters)", len(s)-maxPartChars)
	}
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		b.WriteString(termesc.Escape(l))
		b.WriteString("\n")
	}
}

// firstLine is a description's first line.
func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}
