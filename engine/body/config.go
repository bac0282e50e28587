package body

import (
	"time"

	"github.com/thea-harness/thea/schema"
)

// Defaults where a spec gives none.
const (
	// defaultStartTimeout bounds a start (spawn, handshake, tool listing).
	defaultStartTimeout = 30 * time.Second
	// defaultStopGrace is how long an interrupted physical call may take to
	// answer before its back-end is killed.
	defaultStopGrace = 2 * time.Second
)

// Config is what the body layer reads of a toolset's section: the fields
// every transport kind shares.
type Config struct {
	// Timeout is the toolset's per-call timeout (a contract's own wins).
	Timeout time.Duration
	// StartTimeout bounds each start and restart (0: 30s).
	StartTimeout time.Duration
	// MaxRestarts bounds the restarts of a crashed or killed back-end;
	// Backoff is the wait before the first, doubled each time.
	MaxRestarts int
	Backoff     time.Duration
	// OnUncertain is "refuse_physical" or "continue": what a fault during
	// a physical call leaves.
	OnUncertain string
	// StopGrace is how long an interrupted physical call may take to
	// answer, after the kind's stop, before its back-end is killed (0: 2s).
	StopGrace time.Duration
}

// configOf reads the shared fields of a toolset's section.
func configOf(s schema.Toolset) Config {
	return Config{
		Timeout: s.Timeout.D(), StartTimeout: s.StartTimeout.D(),
		MaxRestarts: s.Restart.MaxRestarts, Backoff: s.Restart.Backoff.D(),
		OnUncertain: s.OnUncertain, StopGrace: s.StopGrace.D(),
	}
}

func (c Config) startTimeout() time.Duration {
	if c.StartTimeout > 0 {
		return c.StartTimeout
	}
	return defaultStartTimeout
}

func (c Config) stopGrace() time.Duration {
	if c.StopGrace > 0 {
		return c.StopGrace
	}
	return defaultStopGrace
}
