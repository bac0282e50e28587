package cli_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every command builds its session through session.go, which makes the one
// wiring call (components.Session): no other file of the CLI builds
// components or a session, or names a piece of the wiring by hand
// (thea validate's own skills.Load checks the folders; it builds nothing).
func TestSessionsAreBuiltInOnePlace(t *testing.T) {
	wiring := map[string]bool{"engine.New": true, "components.Session": true, "components.Default": true,
		"policies.New": true, "embodiments.Render": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "session.go" {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		file, err := parser.ParseFile(token.NewFileSet(), f, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if pkg, ok := sel.X.(*ast.Ident); ok && wiring[pkg.Name+"."+sel.Sel.Name] {
					t.Errorf("%s names %s.%s: build sessions through session.go (components.Session)", f, pkg.Name, sel.Sel.Name)
				}
			}
			return true
		})
	}
}
