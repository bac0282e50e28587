package rosbridge

import (
	"strings"
	"testing"
	"time"
)

// The stop path's bounds have one default, the schema's: what a back-end
// runs is the decoded config's value (config.cue's default when the
// section leaves it out, the section's when it sets one), and a config
// built in Go without them is refused, never given a second default.
func TestStopBoundsAreTheSchemas(t *testing.T) {
	stop := map[string]any{"service": map[string]any{"name": "/stop", "type": "std_srvs/srv/Trigger"}}
	for _, tc := range []struct {
		section map[string]any
		cancel  time.Duration // 0: the schema's default, read from the decoded config
		stop    time.Duration
	}{
		{map[string]any{"stop": stop}, 0, 0},
		{map[string]any{"cancel_timeout": "750ms", "stop": map[string]any{"timeout": "3s", "service": stop["service"]}}, 750 * time.Millisecond, 3 * time.Second},
	} {
		cfg, err := DecodeConfig(tc.section)
		if err != nil {
			t.Fatal(err)
		}
		wantCancel, wantStop := tc.cancel, tc.stop
		if wantCancel == 0 {
			wantCancel, wantStop = duration(cfg.CancelTimeout), duration(cfg.Stop.Timeout)
		}
		p, err := compile(cfg)
		if err != nil {
			t.Fatal(err)
		}
		b := &backend{plan: p}
		if got := b.cancelTimeout(); got != wantCancel || got <= 0 {
			t.Errorf("%v: the cancel runs with %s, the config says %s", tc.section, got, wantCancel)
		}
		if p.stop.timeout != wantStop || wantStop <= 0 {
			t.Errorf("%v: the stop runs with %s, the config says %s", tc.section, p.stop.timeout, wantStop)
		}
	}

	good, err := DecodeConfig(map[string]any{"stop": stop})
	if err != nil {
		t.Fatal(err)
	}
	for path, edit := range map[string]func(c *Config){
		"cancel_timeout":    func(c *Config) { c.CancelTimeout = "" },
		"reconnect.initial": func(c *Config) { c.Reconnect.Initial = "" },
		"reconnect.max":     func(c *Config) { c.Reconnect.Max = "0s" },
		"stop.timeout":      func(c *Config) { s := *c.Stop; s.Timeout = ""; c.Stop = &s },
	} {
		cfg := good
		edit(&cfg)
		if _, err := compile(cfg); err == nil || !strings.Contains(err.Error(), path+": ") || !strings.Contains(err.Error(), "not a positive duration") {
			t.Errorf("%s left out of a config built in Go: %v, want an error naming it", path, err)
		}
	}
}
