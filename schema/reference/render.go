package reference

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/thea-harness/thea/schema"
)

// longDefault is the length past which a default is shown below its table.
const longDefault = 48

// render writes a section, its table and then its children's sections.
func render(b *bytes.Buffer, s *section) {
	fmt.Fprintf(b, "%s %s\n\n", strings.Repeat("#", s.level), s.title)
	if s.doc != "" {
		b.WriteString(escapeTags(s.doc) + "\n\n")
	}
	if len(s.rows) > 0 {
		b.WriteString("| Field | Type | Default | Description |\n|---|---|---|---|\n")
		var long []row
		for _, r := range s.rows {
			name := "`" + r.name + "`"
			if r.link != "" {
				name = "[" + name + "](#" + r.link + ")"
			}
			if r.anchor != "" {
				name = `<a id="` + r.anchor + `"></a>` + name
			}
			def := "—"
			switch {
			case r.required:
				def = "*required*"
			case strings.Contains(r.def, "\n") || len(r.def) > longDefault:
				def = "see below"
				long = append(long, r)
			case r.def != "":
				def = "`" + r.def + "`"
			}
			doc := r.doc
			if doc == "" {
				doc = Undocumented
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s |\n", name, cell(r.typ), cell(def), cell(escapeTags(doc)))
		}
		b.WriteString("\n")
		for _, r := range long {
			fmt.Fprintf(b, "Default of `%s`:\n\n", r.name)
			if strings.Contains(r.def, "\n") {
				fmt.Fprintf(b, "```text\n%s\n```\n\n", strings.TrimRight(r.def, "\n"))
			} else {
				fmt.Fprintf(b, "```cue\n%s\n```\n\n", r.def)
			}
		}
	}
	for _, c := range s.children {
		render(b, c)
	}
}

// cell is text fit for one table cell: one line, '|' escaped.
func cell(s string) string {
	s = strings.ReplaceAll(s, "\n\n", "<br>")
	s = strings.Join(strings.Fields(s), " ")
	// Already escaped pipes (between alternatives) stay as they are.
	s = strings.ReplaceAll(s, `\|`, "\x00")
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\x00", `\|`)
}

// escapeTags keeps a doc's <name> from reading as an HTML tag: '<'
// outside code spans becomes &lt;.
func escapeTags(s string) string {
	var b strings.Builder
	code := false
	for _, r := range s {
		switch {
		case r == '`':
			code = !code
		case r == '<' && !code:
			b.WriteString("&lt;")
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// components lists every registered name per kind, with its doc line.
func components(b *bytes.Buffer, c *schema.Descriptors) {
	b.WriteString("## Components\n\nThe components this build registers, by the field that names them.\n\n")
	for _, k := range componentKinds {
		fmt.Fprintf(b, "### %s\n\nNamed by `%s`.\n\n", k.heading, k.field)
		names := c.Names(k.kind)
		if len(names) == 0 {
			b.WriteString("None registered in this build.\n\n")
			continue
		}
		stage := k.kind == schema.KindStage
		if stage {
			b.WriteString("| Name | Description | Runs after | Warned when missing and |\n|---|---|---|---|\n")
		} else {
			b.WriteString("| Name | Description |\n|---|---|\n")
		}
		for _, n := range names {
			d, _ := c.Lookup(k.kind, n)
			doc := d.Doc
			if doc == "" {
				doc = Undocumented
			}
			if !stage {
				fmt.Fprintf(b, "| `%s` | %s |\n", n, cell(escapeTags(doc)))
				continue
			}
			after := "—"
			if len(d.After) > 0 {
				after = "`" + strings.Join(d.After, "`, `") + "`"
			}
			needed := "—"
			if d.NeededDoc != "" {
				needed = cell(escapeTags(d.NeededDoc))
			}
			fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", n, cell(escapeTags(doc)), after, needed)
		}
		b.WriteString("\n")
	}
}

// singular is a heading's word for one ("Model providers": model provider).
func singular(heading string) string { return strings.TrimSuffix(heading, "s") }
