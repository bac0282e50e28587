package skills

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/internal/readfile"
)

// Catalog is a session's fixed set of skills: names and descriptions are
// resident, bodies are loaded on demand.
type Catalog struct {
	skills map[string]Skill
	names  []string
}

var _ engine.SkillCatalog = (*Catalog)(nil)

// NewCatalog builds a catalog; a name used twice is an error naming both files.
func NewCatalog(skills ...Skill) (*Catalog, error) {
	c := &Catalog{skills: map[string]Skill{}}
	var errs []error
	for _, s := range skills {
		if prev, ok := c.skills[s.Name]; ok {
			errs = append(errs, fmt.Errorf("%s: skill %q is already defined in %s", s.Path, s.Name, prev.Path))
			continue
		}
		c.skills[s.Name] = s
		c.names = append(c.names, s.Name)
	}
	slices.Sort(c.names)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return c, nil
}

// Load scans each directory for <skill>/SKILL.md. Every problem is reported,
// each naming its file; sub-directories without a SKILL.md are not skills.
func Load(ctx context.Context, dirs []string) (*Catalog, error) {
	var skills []Skill
	var errs []error
	for _, dir := range dirs {
		entries, err := listDir(dir)
		if err != nil {
			errs = append(errs, fmt.Errorf("skills dir: %w", err))
			continue
		}
		for _, e := range entries {
			if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			path := filepath.Join(dir, e.Name(), SkillFile)
			if _, err := os.Stat(path); err != nil {
				continue
			}
			s, err := Parse(ctx, path)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			skills = append(skills, s)
		}
	}
	c, err := NewCatalog(skills...)
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return c, nil
}

// listDir lists a skills folder; a FIFO in its place is an error at once
// (os.ReadDir would wait for a writer).
func listDir(dir string) ([]os.DirEntry, error) {
	root, err := readfile.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	d, err := root.Open(".")
	if err != nil {
		return nil, err
	}
	defer d.Close()
	entries, err := d.ReadDir(-1)
	slices.SortFunc(entries, func(a, b os.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// CatalogHeading opens the resident catalog, so the model can tell the
// skills from the Embodiment Profile above them and knows how to use them.
const CatalogHeading = "Skill Catalog (load a skill with load_skill before a task it covers):"

// Render is the resident catalog: a heading, then one line "- name:
// description" per skill; "" without skills.
func (c *Catalog) Render() string {
	if len(c.names) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(CatalogHeading + "\n")
	for _, n := range c.names {
		fmt.Fprintf(&b, "- %s: %s\n", n, c.skills[n].Description)
	}
	return b.String()
}

// Body returns a skill's instructions and a line listing its resource files,
// which the model reads only when the instructions call for them.
func (c *Catalog) Body(name string) (string, error) {
	s, ok := c.skills[name]
	if !ok {
		known := "none"
		if len(c.names) > 0 {
			known = strings.Join(c.names, ", ")
		}
		return "", fmt.Errorf("unknown skill %q (known skills: %s)", name, known)
	}
	if len(s.Resources) == 0 {
		return s.Body, nil
	}
	return s.Body + "\n\nResources of this skill (read one with read_skill_resource only when the instructions above call for it): " +
		strings.Join(s.Resources, ", "), nil
}

// Names lists the skills, sorted.
func (c *Catalog) Names() []string { return slices.Clone(c.names) }

// Skill returns one parsed skill.
func (c *Catalog) Skill(name string) (Skill, bool) {
	s, ok := c.skills[name]
	return s, ok
}
