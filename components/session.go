package components

import (
	"context"

	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/policies"
	"github.com/thea-harness/thea/skills"
)

// Session is everything this build gives a session, in the one call the
// CLI, the tests and an embedding program make: the component catalog
// (Default, over one set of physical locks), the hook policy, the skill
// loader and the Embodiment Profile renderer. Validate a spec against its
// Components' descriptors, add the run's own choices (RunLogDir, User,
// Sinks, Owned), and engine.New(ctx, spec, opts) is a complete session.
func Session(o Options) (engine.Options, error) {
	c, err := Default(o)
	if err != nil {
		return engine.Options{}, err
	}
	return engine.Options{
		Components:    c,
		Policy:        policies.New,
		LoadSkills:    loadSkills,
		RenderProfile: embodiments.Render,
		Logger:        o.Logger,
	}, nil
}

// loadSkills is skills.Load as the engine's SkillLoader. Its errors name
// each file; the engine adds "skills:".
func loadSkills(ctx context.Context, dirs []string) (engine.SkillCatalog, error) {
	sc, err := skills.Load(ctx, dirs)
	if err != nil {
		return nil, err
	}
	return sc, nil
}
