package cli

import (
	"context"
	"fmt"

	"log/slog"
	"path/filepath"

	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/model/script"
	"github.com/thea-harness/thea/policies"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/skills"
	"github.com/thea-harness/thea/stages"
	"github.com/thea-harness/thea/toolsets"
	"github.com/thea-harness/thea/toolsets/user"
)

// registries builds the explicit registries of every implementation this
// binary ships. It is the one place that names them.
func registries(logger *slog.Logger, locks *toolsets.PhysicalLocks) (*engine.Registry[engine.ToolsetFactory], *engine.Registry[engine.StageFactory], *model.Providers, error) {
	ts := engine.NewRegistry[engine.ToolsetFactory]("toolset kind")
	if err := toolsets.Register(ts, toolsets.Deps{Locks: locks, Logger: logger}); err != nil {
		return nil, nil, nil, err
	}
	st := engine.NewRegistry[engine.StageFactory]("stage")
	if err := stages.Register(st); err != nil {
		return nil, nil, nil, err
	}
	models := model.NewProviders()
	if err := script.Register(models); err != nil {
		return nil, nil, nil, err
	}
	return ts, st, models, nil
}

// loadSpec loads and validates spec files, printing every diagnostic.
func (a *App) loadSpec(paths []string) (*schema.Spec, error) {
	spec, diags := schema.Load(paths, schema.LoadOptions{Profiles: a.Profiles})
	if len(diags) > 0 {
		for _, d := range diags {
			fmt.Fprintln(a.Stderr, d.String())
		}
		return nil, exitError{code: 1}
	}
	return spec, nil
}

// sessionOptions are the run-time choices of one session.
type sessionOptions struct {
	runLogDir string
	// terminal is the shared terminal when instructions are read from the
	// same input as the user's answers.
	terminal *user.Terminal
}

// newHarness builds one session from a validated spec with this binary's
// implementations.
func (a *App) newHarness(ctx context.Context, spec *schema.Spec, so sessionOptions) (*engine.Harness, error) {
	logger := slog.New(slog.NewTextHandler(a.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ts, st, models, err := registries(logger, toolsets.NewPhysicalLocks())
	if err != nil {
		return nil, err
	}
	uc, err := a.userChannel(spec, so)
	if err != nil {
		return nil, err
	}
	var catalog engine.SkillCatalog
	if len(spec.Skills.Dirs) > 0 {
		dirs := make([]string, len(spec.Skills.Dirs))
		for i, d := range spec.Skills.Dirs {
			dirs[i] = resolve(spec.Dir, d)
		}
		c, err := skills.Load(dirs)
		if err != nil {
			return nil, fmt.Errorf("skills: %w", err)
		}
		catalog = c
	}
	h, err := engine.New(ctx, spec, engine.Options{
		Toolsets:      ts,
		Stages:        st,
		Models:        models,
		Policy:        policies.New,
		User:          uc,
		Skills:        catalog,
		RenderProfile: embodiments.Render,
		RunLogDir:     so.runLogDir,
		Logger:        logger,
	})
	if err != nil {
		return nil, fmt.Errorf("starting the session: %w", err)
	}
	return h, nil
}

// userChannel picks the person at the other end of query_user/notify_user.
func (a *App) userChannel(spec *schema.Spec, so sessionOptions) (engine.UserChannel, error) {
	switch spec.User.Channel {
	case "script":
		s, err := user.LoadScript(resolve(spec.Dir, spec.User.Script))
		if err != nil {
			return nil, err
		}
		return s, nil
	case "none":
		return user.None{}, nil
	default:
		if so.terminal != nil {
			return so.terminal, nil
		}
		return user.NewTerminal(a.Stdin, a.Stderr), nil
	}
}

func resolve(dir, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}
