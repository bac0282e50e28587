package engine

import (
	"context"
	"errors"
	"fmt"
)

// buildSkills sets the session's Skill Catalog: the caller's, or the spec's
// skills.dirs loaded with Options.LoadSkills. Skill folders a session cannot
// load are an error: the model would otherwise miss skills the spec
// promises, and nothing would say so.
func (h *Harness) buildSkills(ctx context.Context) error {
	if h.opts.Skills == nil && len(h.spec.Skills.Dirs) > 0 {
		if h.opts.LoadSkills == nil {
			return errors.New("skills.dirs: the spec names skill folders, but this session has no skill loader (engine.Options.LoadSkills; components.Session sets it)")
		}
		dirs := make([]string, len(h.spec.Skills.Dirs))
		for i, d := range h.spec.Skills.Dirs {
			dirs[i] = h.resolve(d)
		}
		sc, err := h.opts.LoadSkills(ctx, dirs)
		if err != nil {
			return fmt.Errorf("skills: %w", err)
		}
		h.opts.Skills = sc
	}
	if h.opts.Skills != nil {
		h.catalog = h.opts.Skills.Render()
	}
	return nil
}

// SkillCatalog is the session's fixed set of skills (name + description
// resident; bodies loaded on demand).
type SkillCatalog interface {
	// Render is the resident catalog text (names and descriptions).
	Render() string
	// Body returns one skill's instruction body, or an error naming the skill.
	Body(name string) (string, error)
	Names() []string
	// Resource reads one of a skill's resource files (path relative to its
	// folder); it refuses any path that leaves the folder.
	Resource(ctx context.Context, name, path string) (string, error)
}
