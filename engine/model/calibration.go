package model

import (
	"encoding/json"
	"fmt"
	"math"
	"sync"
)

// Calibration corrects the harness's character-based token estimate with the
// input tokens a provider reports: a per-model ratio reported/estimate,
// updated with every response. The ratio rises at once to any higher
// observation and sinks only slowly (decay) toward lower ones, so a budget
// built on Scale does not underestimate the provider's count for long. It is
// safe for concurrent use and marshals to JSON so a session can persist it.
// The zero value is ready: ratio 1, no observations.
type Calibration struct {
	mu    sync.Mutex
	ratio float64
	n     int
}

const (
	// calibrationDecay is how far one lower observation pulls the ratio down.
	calibrationDecay = 0.1
	// Ratios outside these bounds are not plausible for a text estimate (a
	// provider counting an empty request, a misreported usage) and are clamped.
	minRatio = 0.25
	maxRatio = 8
)

// Observe records one response: the request's estimate and the provider's
// reported input tokens. Non-positive values (a provider that reports no
// usage) are ignored.
func (c *Calibration) Observe(estimate, reported int) {
	if estimate <= 0 || reported <= 0 {
		return
	}
	r := math.Min(maxRatio, math.Max(minRatio, float64(reported)/float64(estimate)))
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.n == 0 || r >= c.ratio:
		c.ratio = r
	default:
		c.ratio += calibrationDecay * (r - c.ratio)
	}
	c.n++
}

// Scale converts an estimate into the provider's count, rounding up.
func (c *Calibration) Scale(estimate int) int {
	r := c.Ratio()
	return int(math.Ceil(float64(estimate) * r))
}

// Ratio is the current reported/estimate ratio (1 before any observation).
func (c *Calibration) Ratio() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == 0 {
		return 1
	}
	return c.ratio
}

// Observations is how many responses were observed.
func (c *Calibration) Observations() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

type calibrationJSON struct {
	Ratio        float64 `json:"ratio"`
	Observations int     `json:"observations"`
}

// MarshalJSON encodes the ratio and the number of observations.
func (c *Calibration) MarshalJSON() ([]byte, error) {
	c.mu.Lock()
	v := calibrationJSON{Ratio: c.ratio, Observations: c.n}
	c.mu.Unlock()
	if v.Observations == 0 {
		v.Ratio = 1
	}
	return json.Marshal(v)
}

// UnmarshalJSON restores a persisted calibration; an implausible ratio is an
// error rather than a silently wrong budget.
func (c *Calibration) UnmarshalJSON(b []byte) error {
	var v calibrationJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("token calibration: %w", err)
	}
	if v.Observations < 0 {
		return fmt.Errorf("token calibration: negative observations %d", v.Observations)
	}
	if v.Observations > 0 && (math.IsNaN(v.Ratio) || v.Ratio < minRatio || v.Ratio > maxRatio) {
		return fmt.Errorf("token calibration: ratio %v outside [%v, %v]", v.Ratio, minRatio, maxRatio)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ratio, c.n = v.Ratio, v.Observations
	return nil
}
