package trace

import (
	"fmt"
	"strings"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/termesc"
)

// Preview renders a request as an integrator reads it (`thea context`): each lifetime
// with its token estimate, every message with images as placeholders, and
// the tool definitions the model is offered. Every string in it may come
// from a back-end (a tool's name, description and inputSchema, an
// observation, a camera name) or a file (memory, the spec): each passes
// Escape, line by line where newlines are the text's own (Lines).
func Preview(p engine.Preview) string {
	var b strings.Builder
	msgs := p.Request.Messages
	fmt.Fprintf(&b, "═══ Resident (~%d tokens with tool definitions)\n", p.Tokens.Resident)
	if len(msgs) > 0 && msgs[0].Role == model.RoleSystem {
		writeMessage(&b, msgs[0])
		msgs = msgs[1:]
	}
	refreshed := msgs[len(msgs)-min(p.RefreshedMessages, len(msgs)):]
	msgs = msgs[:len(msgs)-len(refreshed)]
	fmt.Fprintf(&b, "\n═══ Accumulated (~%d tokens, %d messages)\n", p.Tokens.Accumulated, len(msgs))
	for _, m := range msgs {
		writeMessage(&b, m)
	}
	fmt.Fprintf(&b, "\n═══ Refreshed (~%d tokens)\n", p.Tokens.Refreshed)
	for _, m := range refreshed {
		writeMessage(&b, m)
	}
	fmt.Fprintf(&b, "\n═══ Tool definitions (%d)\n", len(p.Request.Tools))
	for _, t := range p.Request.Tools {
		fmt.Fprintf(&b, "── %s\n%s\ninput: %s\n", termesc.Escape(t.Name), Lines(t.Description), termesc.Escape(string(t.InputSchema)))
	}
	fmt.Fprintf(&b, "\n═══ Total ~%d tokens\n", p.Tokens.Total)
	return b.String()
}

// Lines escapes a multi-line text for the terminal keeping its line breaks:
// each line passes Escape (a carriage return, an escape code or a bidi
// override is shown, not obeyed), so no line can rewrite another.
func Lines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = termesc.Escape(l)
	}
	return strings.Join(lines, "\n")
}

func writeMessage(b *strings.Builder, m model.Message) {
	fmt.Fprintf(b, "── %s", termesc.Escape(string(m.Role)))
	if m.ToolCallID != "" {
		fmt.Fprintf(b, " (answers %s)", termesc.Escape(m.ToolCallID))
	}
	b.WriteString("\n")
	for _, p := range m.Parts {
		switch {
		case p.Image != nil:
			fmt.Fprintf(b, "[image: %s camera, %s, %dx%d]\n", termesc.Escape(p.Image.Camera), termesc.Escape(p.Image.MIME), p.Image.Width, p.Image.Height)
		default:
			b.WriteString(Lines(p.Text))
			b.WriteString("\n")
		}
	}
	for _, c := range m.ToolCalls {
		fmt.Fprintf(b, "→ call %s %s\n", termesc.Escape(c.Name), termesc.Escape(string(c.Arguments)))
	}
}
