package body

import (
	"fmt"
	"time"

	"github.com/thea-harness/thea/schema"
)

// Config is what the body layer reads of a toolset's section: the fields
// every transport kind shares. Each has one default, the CUE schema's
// (#Transport), which schema.Load fills in: the body layer keeps no second
// copy, so a section without start_timeout runs with exactly what the
// reference documents.
type Config struct {
	// Timeout is the toolset's per-call timeout (a contract's own wins).
	Timeout time.Duration
	// StartTimeout bounds each start and restart; it must be positive.
	StartTimeout time.Duration
	// MaxRestarts bounds the restarts of a crashed or killed back-end;
	// Backoff is the wait before the first, doubled each time.
	MaxRestarts int
	Backoff     time.Duration
	// OnUncertain is "refuse_physical" or "continue": what a fault during
	// a physical call leaves.
	OnUncertain string
	// StopGrace is how long an interrupted physical call may take to
	// answer, after the kind's stop, before its back-end is killed (0: the
	// kill follows the stop at once).
	StopGrace time.Duration
}

// configOf reads the shared fields of a toolset's section. A start timeout
// that is not positive cannot start anything: it is an error, not a
// silent default (a spec built in Go must set what Load would fill).
func configOf(name string, s schema.Toolset) (Config, error) {
	c := Config{
		Timeout: s.Timeout.D(), StartTimeout: s.StartTimeout.D(),
		MaxRestarts: s.Restart.MaxRestarts, Backoff: s.Restart.Backoff.D(),
		OnUncertain: s.OnUncertain, StopGrace: s.StopGrace.D(),
	}
	if c.StartTimeout <= 0 {
		return Config{}, fmt.Errorf("toolsets.%s.start_timeout is %s: it must be positive (schema.Load fills the schema's default)", name, c.StartTimeout)
	}
	if c.StopGrace < 0 {
		return Config{}, fmt.Errorf("toolsets.%s.stop_grace is %s: it cannot be negative", name, c.StopGrace)
	}
	return c, nil
}
