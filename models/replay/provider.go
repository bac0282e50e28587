package replay

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// Model answers each request with the episode's next recorded response of
// the request's purpose. It is safe for concurrent use.
type Model struct {
	source string
	mu     sync.Mutex
	queues map[model.Purpose][]runlog.ModelCall
	used   map[model.Purpose]int
}

var _ model.Model = (*Model)(nil)

// Config is a replay model section's own fields (schema.Model.Config).
type Config struct {
	// Script is the recorded episode: its folder or its events.jsonl,
	// relative to the spec's directory.
	Script string `json:"script,omitempty"`
}

// configCUE is Config's fields, for the schema the build generates.
const configCUE = `// The episode whose model responses are fed back: its folder or its
// events.jsonl, relative to the spec's directory.
script?: #NonEmpty
`

// Provider is the "replay" model provider: model.script names a recorded
// episode (its folder or its events.jsonl).
func Provider() engine.ProviderKind {
	return engine.TypedProvider("replay", "the model responses of a recorded episode, fed back in order (thea test)", configCUE,
		func(c *schema.Check, m schema.Model, cfg Config) {
			if cfg.Script == "" {
				c.ErrorfAtKey(".provider", "provider %q needs script: the episode to replay (its folder or its %s)", m.Provider, runlog.EventsFile)
				return
			}
			err := Check(c.Resolve(cfg.Script))
			switch {
			case err == nil:
			case errors.Is(err, fs.ErrNotExist):
				c.Errorf(".script", "episode %q does not exist (relative to the spec's directory): name its folder or its %s", cfg.Script, runlog.EventsFile)
			default:
				c.Errorf(".script", "episode %q cannot be read: %v", cfg.Script, err)
			}
		},
		func(_ schema.Model, cfg Config, dir string) (model.Model, error) { return New(cfg, dir) })
}

// New loads the episode cfg.Script (relative to dir).
func New(cfg Config, dir string) (model.Model, error) {
	if cfg.Script == "" {
		return nil, errors.New("replay provider: model.script names no episode")
	}
	// A provider is built without a context (engine.ProviderKind.New); the
	// reader refuses anything but a regular file within the limit, so the
	// read cannot wait.
	ep, err := Load(context.Background(), schema.ResolvePath(dir, cfg.Script))
	if err != nil {
		return nil, fmt.Errorf("replay provider: %w", err)
	}
	return FromEpisode(ep), nil
}

// FromEpisode builds the model of a loaded episode.
func FromEpisode(ep *Episode) *Model {
	m := &Model{source: ep.Path, queues: map[model.Purpose][]runlog.ModelCall{}, used: map[model.Purpose]int{}}
	for _, c := range ep.Calls {
		m.queues[c.Purpose] = append(m.queues[c.Purpose], c)
	}
	return m
}

// ErrExhausted is wrapped by the error of a request the episode has no
// response left for: the run asked the model more than the recording did.
var ErrExhausted = errors.New("no recorded response left")

// Generate returns the next recorded response for req.Purpose; a call that
// failed when recorded fails the same way.
func (m *Model) Generate(ctx context.Context, req model.Request) (model.Response, error) {
	if err := ctx.Err(); err != nil {
		return model.Response{}, fmt.Errorf("replay %s: %w", m.source, err)
	}
	p := req.Purpose
	if p == "" {
		p = model.PurposeDecide
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	q := m.queues[p]
	if len(q) == 0 {
		return model.Response{}, fmt.Errorf("replay %s: %w for a %s call (%d replayed)", m.source, ErrExhausted, p, m.used[p])
	}
	c := q[0]
	m.queues[p] = q[1:]
	m.used[p]++
	if c.Error != "" {
		return model.Response{}, fmt.Errorf("replay %s: recorded error: %s", m.source, c.Error)
	}
	return c.Response(), nil
}

// Remaining reports how many responses of a purpose were not replayed.
func (m *Model) Remaining(p model.Purpose) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.queues[p])
}
