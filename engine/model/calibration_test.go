package model

import (
	"encoding/json"
	"math/rand/v2"
	"sync"
	"testing"
)

// Before any reading the estimate carries a safety margin; a provider that
// reports no usage leaves the estimate as it is.
func TestCalibrationBeforeAnyReading(t *testing.T) {
	var c Calibration
	if got := c.Scale(1000); got != 1500 {
		t.Fatalf("first request: Scale(1000) = %d, want 1500 (the safety margin)", got)
	}
	c.Observe(1000, 0)
	if got := c.Scale(1000); got != 1000 {
		t.Fatalf("a provider without usage: Scale(1000) = %d, want 1000", got)
	}
	c.Observe(1000, 2000)
	if got := c.Scale(1000); got < 2000 {
		t.Fatalf("after a reading of 2: Scale(1000) = %d, want at least 2000", got)
	}
}

// A higher reading is adopted at once; lower ones lower the bound only once
// a whole window of them has pushed it out, never below what the window
// holds.
func TestCalibrationIsAnUpperBound(t *testing.T) {
	var c Calibration
	c.Observe(1000, 1200)
	c.Observe(1000, 2000)
	if r := c.Ratio(); r < 2 {
		t.Fatalf("ratio after a higher reading = %v, want at least 2", r)
	}
	for i := 0; i < calibrationWindow-1; i++ {
		c.Observe(1000, 1000)
		if r := c.Ratio(); r < 2 {
			t.Fatalf("ratio after %d lower readings = %v: it sank below the 2 still in the window", i+1, r)
		}
	}
	c.Observe(1000, 1000)
	if r := c.Ratio(); r < 1 || r > 1.06 {
		t.Fatalf("ratio after a window of readings of 1 = %v, want 1 and the least headroom", r)
	}
	if n := c.Observations(); n != calibrationWindow+2 {
		t.Fatalf("observations = %d", n)
	}
}

// A provider whose count drifts up and down and is noisy, request after
// request: Scale never falls below its count when the count moves by less
// than the recent spread from one request to the next.
func TestCalibrationBoundsADriftingProvider(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var c Calibration
	base := 1.0
	for i := range 5000 {
		// Phases of rising, falling and flat ratios, 1% a request at
		// most, with ±2% noise on each reading.
		switch (i / 400) % 3 {
		case 0:
			base *= 1 + 0.01*rng.Float64()
		case 1:
			base *= 1 - 0.01*rng.Float64()
		}
		base = min(max(base, 0.5), 4)
		est := 1000 + rng.IntN(50000)
		real := int(float64(est) * base * (1 + 0.04*(rng.Float64()-0.5)))
		if i > 0 && c.Scale(est) < real {
			t.Fatalf("request %d: Scale(%d) = %d below the provider's %d (ratio %.3f)", i, est, c.Scale(est), real, base)
		}
		c.Observe(est, real)
	}
}

func TestCalibrationJSON(t *testing.T) {
	var c Calibration
	for _, r := range []int{1500, 1200, 1300} {
		c.Observe(1000, r)
	}
	b, err := json.Marshal(&c)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"ratios":[1.5,1.2,1.3],"observations":3}` {
		t.Fatalf("encoded %s", b)
	}
	var d Calibration
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	if d.Scale(1000) != c.Scale(1000) || d.Observations() != 3 {
		t.Fatalf("restored Scale(1000) = %d (want %d), observations %d", d.Scale(1000), c.Scale(1000), d.Observations())
	}
	// A full window restores in order: the oldest reading leaves first.
	var e Calibration
	e.Observe(1000, 3000)
	for range calibrationWindow - 1 {
		e.Observe(1000, 1000)
	}
	b, _ = json.Marshal(&e)
	var f Calibration
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	f.Observe(1000, 1000)
	if r := f.Ratio(); r > 1.06 {
		t.Fatalf("after the restored window moved on, ratio %v: the oldest reading did not leave first", r)
	}
	var zero Calibration
	if b, _ := json.Marshal(&zero); string(b) != `{"ratios":[],"observations":0}` {
		t.Fatalf("zero value encoded %s", b)
	}
	for _, bad := range []string{`{"ratios":[-1],"observations":2}`, `{"ratios":[100],"observations":2}`, `{"ratios":[],"observations":-1}`,
		`{"ratios":[],"observations":3}`, `{"ratios":[1,1],"observations":1}`, `[`} {
		if err := json.Unmarshal([]byte(bad), &d); err == nil {
			t.Fatalf("%s decoded without error", bad)
		}
	}
}

func TestCalibrationConcurrent(t *testing.T) {
	var c Calibration
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Go(func() {
			for i := 1; i <= 200; i++ {
				c.Observe(i*10, i*15)
				_ = c.Scale(i)
				_, _ = json.Marshal(&c)
			}
		})
	}
	wg.Wait()
	if c.Observations() != 800 || c.Scale(1000) != 1575 {
		t.Fatalf("observations %d, Scale(1000) = %d", c.Observations(), c.Scale(1000))
	}
}
