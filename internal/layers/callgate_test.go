package layers

import (
	"errors"
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// callgateUsers are the packages whose production code may mark a call as
// the engine's (internal/callgate): the engine's call path, and the body
// layer that reads the mark. Anything else making it could move the robot
// with a handle that never passed the hooks.
var callgateUsers = []string{"engine", "engine/body"}

func TestOnlyTheEngineMarksItsCalls(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	const gate = module + "internal/callgate"
	var users []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules") {
			return filepath.SkipDir
		}
		p, err := build.Default.ImportDir(path, build.ImportComment)
		var none *build.NoGoError
		if errors.As(err, &none) {
			return nil
		} else if err != nil {
			return err
		}
		if slices.Contains(p.Imports, gate) {
			rel, err := filepath.Rel(root, path)
			if err != nil {
				return err
			}
			users = append(users, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range users {
		if !slices.Contains(callgateUsers, u) {
			t.Errorf("%s imports internal/callgate outside its tests: only the engine's call path may mark a call as having passed the hooks", u)
		}
	}
	if !slices.Contains(users, "engine") || !slices.Contains(users, "engine/body") {
		t.Errorf("internal/callgate is imported by %v: the engine marks its calls and the body layer reads the mark", users)
	}
}
