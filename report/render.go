package report

import (
	"context"
	_ "embed"
	"fmt"
	"html/template"
	"io"
)

//go:embed page.html.tmpl
var pageSource string

// page is parsed once per Render; html/template escapes every value by its
// context (text, attribute, URL), so run text cannot become markup.
func parsePage() (*template.Template, error) {
	return template.New("page").Funcs(template.FuncMap{
		"add": func(d, v int) int { return v + d },
		"sub": func(d, v int) int { return v - d },
	}).Parse(pageSource)
}

// Render writes the page.
func Render(w io.Writer, p *Page) error {
	t, err := parsePage()
	if err != nil {
		return fmt.Errorf("report template: %w", err)
	}
	if err := t.Execute(w, p); err != nil {
		return fmt.Errorf("rendering the report: %w", err)
	}
	return nil
}

// Write loads the run directory and writes its page.
func Write(ctx context.Context, w io.Writer, runDir string) error {
	r, err := Load(ctx, runDir)
	if err != nil {
		return err
	}
	return Render(w, Build(r))
}
