package scaffold

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"text/template"

	"github.com/thea-harness/thea/internal/outfile"
)

//go:embed templates
var templates embed.FS

// Bodies are the body kinds `thea init --body` knows.
var Bodies = []string{"mobile", "arm", "fixed"}

// Options say what to scaffold.
type Options struct {
	// Name is the robot's name: lower-case letters, digits, '-' and '_'.
	Name string
	// Body is one of Bodies.
	Body string
	// Dir is the folder to create; it must not exist or be empty.
	Dir string
}

// data is what the templates read.
type data struct {
	Name, Package, Body string
	// MotionTool is the body's one motion tool; Instruction an example task
	// the scripted episode carries out with it.
	MotionTool, Instruction string
}

var validName = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,62}$`)

// files maps each template to the path it renders to ({{skill}} is the
// example skill's folder).
var files = map[string]string{
	"templates/spec.cue.tmpl":       "spec.cue",
	"templates/episode.yaml.tmpl":   "episode.yaml",
	"templates/server.py.tmpl":      "server.py",
	"templates/README.md.tmpl":      "README.md",
	"templates/gitignore.tmpl":      ".gitignore",
	"templates/skill/SKILL.md.tmpl": "skills/first-steps/SKILL.md",
}

// Create renders the folder and returns the paths it wrote, relative to
// o.Dir. It refuses a non-empty existing folder and leaves nothing behind
// when it fails.
func Create(o Options) ([]string, error) {
	if !validName.MatchString(o.Name) {
		return nil, fmt.Errorf("robot name %q: use lower-case letters, digits, '-' and '_', starting with a letter", o.Name)
	}
	d := data{Name: o.Name, Package: strings.NewReplacer("-", "_").Replace(o.Name), Body: o.Body}
	switch o.Body {
	case "mobile":
		d.MotionTool, d.Instruction = "move_base", "Drive forward half a metre"
	case "arm":
		d.MotionTool, d.Instruction = "move_gripper", "Move the gripper above the cube"
	case "fixed":
		d.MotionTool, d.Instruction = "point_camera", "Look to the left"
	default:
		return nil, fmt.Errorf("body %q: must be one of %s", o.Body, strings.Join(Bodies, ", "))
	}
	if err := emptyOrMissing(o.Dir); err != nil {
		return nil, err
	}
	rendered := map[string][]byte{}
	for tmpl, out := range files {
		b, err := render(tmpl, d)
		if err != nil {
			return nil, err
		}
		rendered[out] = b
	}
	created := !exists(o.Dir)
	var written []string
	for _, out := range slices.Sorted(maps.Keys(rendered)) {
		path := filepath.Join(o.Dir, filepath.FromSlash(out))
		mode := fs.FileMode(0o644)
		if out == "server.py" {
			mode = 0o755
		}
		err := os.MkdirAll(filepath.Dir(path), 0o755)
		if err == nil {
			err = os.WriteFile(path, rendered[out], mode)
		}
		if err != nil {
			cleanup(o.Dir, created, written)
			return nil, fmt.Errorf("writing %s: %w", path, err)
		}
		written = append(written, out)
	}
	return written, nil
}

func render(name string, d data) ([]byte, error) {
	t, err := template.New(filepath.Base(name)).Option("missingkey=error").
		Funcs(template.FuncMap{"lower": strings.ToLower}).ParseFS(templates, name)
	if err != nil {
		return nil, fmt.Errorf("template %s: %w", name, err)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, d); err != nil {
		return nil, fmt.Errorf("rendering %s: %w", name, err)
	}
	return b.Bytes(), nil
}

// emptyOrMissing refuses to write into a folder that holds anything.
func emptyOrMissing(dir string) error {
	if dir == "" {
		return errors.New("no folder given")
	}
	if err := outfile.CheckDir(dir); err != nil {
		return err
	}
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("folder %s: %w", dir, err)
	case len(entries) > 0:
		return fmt.Errorf("folder %s is not empty: refusing to overwrite it", dir)
	}
	return nil
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// cleanup removes what a failed Create wrote.
func cleanup(dir string, created bool, written []string) {
	if created {
		_ = os.RemoveAll(dir) // best effort: the error reported is the write's
		return
	}
	for _, w := range written {
		_ = os.Remove(filepath.Join(dir, w))
	}
}
