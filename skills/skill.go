package skills

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"

	"github.com/thea-harness/thea/internal/readfile"
)

// SkillFile is the file that makes a directory a skill.
const SkillFile = "SKILL.md"

// Skill is one parsed SKILL.md: its front matter, its markdown body and the
// other files of its directory (listed, never read here).
type Skill struct {
	Name        string
	Description string
	// Extra holds front-matter fields other than name and description.
	Extra map[string]any
	Body  string
	// Path is the SKILL.md file; Dir its directory.
	Path string
	Dir  string
	// Resources are the skill's other files, relative to Dir, sorted.
	Resources []string
}

// Parse reads a SKILL.md and lists the resources beside it. The file is
// read through the one reader, under its folder: a SKILL.md that is a
// symlink leading out of the folder is refused, as is a FIFO or a device.
func Parse(ctx context.Context, path string) (Skill, error) {
	root, err := readfile.OpenRoot(filepath.Dir(path))
	if err != nil {
		return Skill{}, fmt.Errorf("skill: %w", err)
	}
	defer root.Close()
	data, err := readfile.ReadIn(ctx, root, filepath.Base(path), readfile.Skill)
	if err != nil {
		return Skill{}, fmt.Errorf("skill: %w", err)
	}
	s, err := ParseBytes(path, data)
	if err != nil {
		return Skill{}, err
	}
	s.Resources, err = resources(s.Dir)
	if err != nil {
		return Skill{}, fmt.Errorf("skill %s: listing resources: %w", path, err)
	}
	return s, nil
}

// ParseBytes parses the contents of a SKILL.md; path names it in errors.
func ParseBytes(path string, data []byte) (Skill, error) {
	front, body, line, err := splitFrontMatter(data)
	if err != nil {
		return Skill{}, fmt.Errorf("%s: %w", path, err)
	}
	var fields map[string]any
	// The blank line stands for the opening "---", so the line numbers in
	// YAML errors are the file's.
	if err := yaml.Unmarshal(append([]byte("\n"), front...), &fields); err != nil {
		return Skill{}, fmt.Errorf("%s: front matter is not valid YAML: %w", path, err)
	}
	s := Skill{Path: path, Dir: filepath.Dir(path), Body: strings.TrimSpace(string(body))}
	for k, v := range fields {
		switch k {
		case "name", "description":
			str, ok := v.(string)
			if !ok {
				return Skill{}, fmt.Errorf("%s:%d: front matter field %q must be a string", path, line, k)
			}
			if k == "name" {
				s.Name = strings.TrimSpace(str)
			} else {
				s.Description = strings.Join(strings.Fields(str), " ")
			}
		default:
			if s.Extra == nil {
				s.Extra = map[string]any{}
			}
			s.Extra[k] = v
		}
	}
	switch {
	case s.Name == "":
		return Skill{}, fmt.Errorf("%s:%d: front matter has no name", path, line)
	case strings.ContainsFunc(s.Name, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_' }):
		return Skill{}, fmt.Errorf("%s:%d: skill name %q must be one word (letters, digits, - or _)", path, line, s.Name)
	case s.Description == "":
		return Skill{}, fmt.Errorf("%s:%d: skill %q has an empty description; the catalog shows it to the model to decide when to load the skill", path, line, s.Name)
	}
	return s, nil
}

// splitFrontMatter separates the YAML between the leading "---" lines from the
// body; line is the first line of the front matter (for messages).
func splitFrontMatter(data []byte) (front, body []byte, line int, err error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	if string(bytes.TrimRight(first, " \t")) != "---" {
		return nil, nil, 1, errors.New("missing front matter: the file must start with a line \"---\", then YAML with name and description, then \"---\"")
	}
	for off := 0; off <= len(rest); {
		end := bytes.IndexByte(rest[off:], '\n')
		var l []byte
		if end < 0 {
			l = rest[off:]
		} else {
			l = rest[off : off+end]
		}
		if string(bytes.TrimRight(l, " \t")) == "---" {
			if end < 0 {
				return rest[:off], nil, 2, nil
			}
			return rest[:off], rest[off+end+1:], 2, nil
		}
		if end < 0 {
			break
		}
		off += end + 1
	}
	return nil, nil, 1, errors.New("front matter is not closed: add a line \"---\" after the YAML")
}

// resources lists the files of a skill directory other than SKILL.md.
func resources(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && p != dir {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		if rel != SkillFile {
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(out)
	return out, err
}
