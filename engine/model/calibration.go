package model

import (
	"encoding/json"
	"fmt"
	"math"
	"sync"
)

// Calibration turns the harness's character-based token estimate into an
// upper bound on the provider's own count, learnt from the input tokens each
// response reports. The bound is the highest ratio reported/estimate among
// the last calibrationWindow responses, raised by their spread (at least
// minHeadroom of it): a provider whose ratio wanders by noise or drifts by
// less than that spread from one request to the next never counts a request
// above it. It sinks only on evidence: once calibrationWindow lower readings
// have pushed the highest one out of the window. Before the first reading
// the estimate is scaled by firstRequestMargin; a provider that reports no
// usage (a scripted or human model) leaves the estimate as it is.
//
// It is safe for concurrent use and marshals to JSON so a session can
// persist it. The zero value is ready.
type Calibration struct {
	mu         sync.Mutex
	window     [calibrationWindow]float64 // the latest ratios, a ring
	n          int                        // readings observed
	unreported bool                       // a response came without usage
}

const (
	// calibrationWindow is how many readings the bound is taken over: a
	// higher reading counts until this many have followed it.
	calibrationWindow = 16
	// minHeadroom raises the highest reading when the readings agree
	// closely (or there is one): a provider's count moves a little with
	// what a request holds.
	minHeadroom = 0.05
	// firstRequestMargin scales the estimate before any reading: a request
	// counted by a tokenizer that sees JSON, code or images differently can
	// come out this much larger than four characters a token.
	firstRequestMargin = 1.5
	// Ratios outside these bounds are not plausible for a text estimate (a
	// provider counting an empty request, a misreported usage) and are clamped.
	minRatio = 0.25
	maxRatio = 8
)

// Observe records one response: the request's estimate and the provider's
// reported input tokens. A response without usage (reported <= 0) marks a
// provider that does not report; a non-positive estimate is ignored.
func (c *Calibration) Observe(estimate, reported int) {
	if estimate <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if reported <= 0 {
		c.unreported = true
		return
	}
	r := math.Min(maxRatio, math.Max(minRatio, float64(reported)/float64(estimate)))
	c.window[c.n%calibrationWindow] = r
	c.n++
}

// Scale converts an estimate into an upper bound on the provider's count,
// rounding up.
func (c *Calibration) Scale(estimate int) int {
	return int(math.Ceil(float64(estimate) * c.Ratio()))
}

// Ratio is the factor Scale applies: firstRequestMargin before any reading
// (1 for a provider that reports no usage), else the bound described above.
func (c *Calibration) Ratio() float64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case c.n == 0 && c.unreported:
		return 1
	case c.n == 0:
		return firstRequestMargin
	}
	hi, lo := 0.0, math.Inf(1)
	for _, r := range c.window[:min(c.n, calibrationWindow)] {
		hi, lo = math.Max(hi, r), math.Min(lo, r)
	}
	return math.Min(maxRatio, hi+math.Max(hi-lo, minHeadroom*hi))
}

// Observations is how many responses with usage were observed.
func (c *Calibration) Observations() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

type calibrationJSON struct {
	// Ratios are the readings the bound is taken over, oldest first.
	Ratios       []float64 `json:"ratios"`
	Observations int       `json:"observations"`
	Unreported   bool      `json:"unreported,omitempty"`
}

// MarshalJSON encodes the readings and the number of observations.
func (c *Calibration) MarshalJSON() ([]byte, error) {
	c.mu.Lock()
	v := calibrationJSON{Ratios: []float64{}, Observations: c.n, Unreported: c.unreported}
	for i := max(0, c.n-calibrationWindow); i < c.n; i++ {
		v.Ratios = append(v.Ratios, c.window[i%calibrationWindow])
	}
	c.mu.Unlock()
	return json.Marshal(v)
}

// UnmarshalJSON restores a persisted calibration; an implausible reading is
// an error rather than a silently wrong budget.
func (c *Calibration) UnmarshalJSON(b []byte) error {
	var v calibrationJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("token calibration: %w", err)
	}
	if v.Observations < 0 {
		return fmt.Errorf("token calibration: negative observations %d", v.Observations)
	}
	if len(v.Ratios) > calibrationWindow || len(v.Ratios) > v.Observations || v.Observations > 0 && len(v.Ratios) == 0 {
		return fmt.Errorf("token calibration: %d ratios for %d observations (at most %d kept)", len(v.Ratios), v.Observations, calibrationWindow)
	}
	for _, r := range v.Ratios {
		if math.IsNaN(r) || r < minRatio || r > maxRatio {
			return fmt.Errorf("token calibration: ratio %v outside [%v, %v]", r, minRatio, maxRatio)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.window = [calibrationWindow]float64{}
	// The readings go back in order, so the oldest leaves the window first.
	c.n = v.Observations - len(v.Ratios)
	for _, r := range v.Ratios {
		c.window[c.n%calibrationWindow] = r
		c.n++
	}
	c.unreported = v.Unreported
	return nil
}
