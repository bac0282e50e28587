package cli

import (
	"context"
	"fmt"
	"os"

	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/skills"
)

// skillDiagnostics loads every skills dir the way `run` does and reports
// each problem (a broken SKILL.md, a name defined twice) at the dir's
// position in the spec; the message names the file and line. A dir that does
// not exist is schema's diagnostic already. The check lives here, beside the
// rule tests, because schema must not import skills (skills imports engine).
func skillDiagnostics(ctx context.Context, s *schema.Spec) []schema.Diagnostic {
	var diags []schema.Diagnostic
	report := func(path string, err error) {
		for _, e := range unjoin(err) {
			diags = append(diags, schema.Diagnostic{Pos: s.Pos(path), Path: path, Message: path + ": " + e.Error()})
		}
	}
	var good []string
	for i, dir := range s.Skills.Dirs {
		path := fmt.Sprintf("skills.dirs[%d]", i)
		abs := s.Resolve(dir)
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			continue
		}
		if _, err := skills.Load(ctx, []string{abs}); err != nil {
			report(path, err)
			continue
		}
		good = append(good, abs)
	}
	// Names must also be unique across dirs.
	if len(good) > 1 {
		if _, err := skills.Load(ctx, good); err != nil {
			report("skills.dirs", err)
		}
	}
	return diags
}

// unjoin lists the errors an errors.Join holds (itself otherwise).
func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, unjoin(e)...)
		}
		return out
	}
	return []error{err}
}
