package model

import (
	"encoding/json"
	"math/rand/v2"
	"sync"
	"testing"
)

// A provider that counts 1.5x the estimate (with some noise): after a few
// observations Scale never falls below the provider's real count.
func TestCalibrationReachesProviderCount(t *testing.T) {
	var c Calibration
	if got := c.Scale(1000); got != 1000 {
		t.Fatalf("uncalibrated Scale(1000) = %d, want 1000", got)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	real := func(est int) int { return est*3/2 + rng.IntN(est/50+1) } // 1.5x, up to +2%
	for i := 0; i < 3; i++ {
		est := 2000 + 500*i
		c.Observe(est, real(est))
	}
	for _, est := range []int{100, 4000, 120000} {
		if got, want := c.Scale(est), est*3/2; got < want {
			t.Fatalf("Scale(%d) = %d, below the provider's count %d", est, got, want)
		}
	}
	if r := c.Ratio(); r < 1.5 || r > 1.53 {
		t.Fatalf("ratio %v, want about 1.5", r)
	}
}

// A higher observation is adopted at once; a lower one only pulls slowly.
func TestCalibrationIsMaxBiased(t *testing.T) {
	var c Calibration
	c.Observe(1000, 1200)
	c.Observe(1000, 2000)
	if r := c.Ratio(); r != 2 {
		t.Fatalf("ratio after a higher observation = %v, want 2", r)
	}
	c.Observe(1000, 1000)
	if r := c.Ratio(); r < 1.85 || r >= 2 {
		t.Fatalf("ratio after one lower observation = %v, want a small step down from 2", r)
	}
	for i := 0; i < 100; i++ {
		c.Observe(1000, 1000)
	}
	if r := c.Ratio(); r > 1.01 {
		t.Fatalf("ratio after many lower observations = %v, want it to settle near 1", r)
	}
	c.Observe(0, 500)
	c.Observe(500, 0)
	if n := c.Observations(); n != 103 {
		t.Fatalf("observations = %d, want 103 (zero values ignored)", n)
	}
}

func TestCalibrationJSON(t *testing.T) {
	var c Calibration
	c.Observe(1000, 1500)
	b, err := json.Marshal(&c)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"ratio":1.5,"observations":1}` {
		t.Fatalf("encoded %s", b)
	}
	var d Calibration
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	if d.Scale(100) != 150 || d.Observations() != 1 {
		t.Fatalf("restored Scale(100) = %d, observations %d", d.Scale(100), d.Observations())
	}
	var zero Calibration
	if b, _ := json.Marshal(&zero); string(b) != `{"ratio":1,"observations":0}` {
		t.Fatalf("zero value encoded %s", b)
	}
	for _, bad := range []string{`{"ratio":-1,"observations":2}`, `{"ratio":100,"observations":2}`, `{"ratio":1,"observations":-1}`, `[`} {
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
	if c.Observations() != 800 || c.Scale(1000) != 1500 {
		t.Fatalf("observations %d, Scale(1000) = %d", c.Observations(), c.Scale(1000))
	}
}
