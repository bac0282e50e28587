//go:build mujoco && cgo

package main

import (
	"runtime"
	"testing"
)

// BenchmarkStep: physics steps of the tabletop at rest (the mug on the
// table, the arm still), reported as steps/s.
func BenchmarkStep(b *testing.B) {
	tt, err := newTabletop(newParams(7, span{0.5, 0.5}, span{0.25, 0.25}, 4))
	if err != nil {
		b.Fatal(err)
	}
	defer tt.close()
	b.ResetTimer()
	if err := tt.p.step(b.N); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkStepHolding: steps with the mug held in the closed fingers
// (more contacts), as steps/s.
func BenchmarkStepHolding(b *testing.B) {
	tt, err := newTabletop(newParams(7, span{0.5, 0.5}, span{0.25, 0.25}, 4))
	if err != nil {
		b.Fatal(err)
	}
	defer tt.close()
	if e, err := tt.pickUp("mug"); err != nil || e["success"] != true {
		b.Fatalf("pick_up: %v %v", e, err)
	}
	b.ResetTimer()
	if err := tt.p.step(b.N); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}

// BenchmarkEpisode: one whole scripted episode in process (build the
// scene, pick_up, place into the bin), without rendering.
func BenchmarkEpisode(b *testing.B) {
	for i := range b.N {
		tt, err := newTabletop(newParams(uint64(i), span{0.1, 0.6}, span{0.15, 0.35}, 4))
		if err != nil {
			b.Fatal(err)
		}
		if e, err := tt.pickUp("mug"); err != nil {
			b.Fatal(err)
		} else if e["success"] == true {
			if _, err := tt.place("mug", "bin"); err != nil {
				b.Fatal(err)
			}
		}
		tt.close()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Minutes(), "episodes/min")
}

// BenchmarkRenderPNG: one overhead camera frame, 320×240, rendered through
// EGL (llvmpipe, no GPU) and encoded as PNG at the fastest compression.
func BenchmarkRenderPNG(b *testing.B) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	tt, err := newTabletop(newParams(7, span{0.5, 0.5}, span{0.25, 0.25}, 4))
	if err != nil {
		b.Fatal(err)
	}
	defer tt.close()
	r, err := newRenderer(tt.p, 320, 240)
	if err != nil {
		b.Fatal(err)
	}
	defer r.close()
	b.ResetTimer()
	for range b.N {
		if _, err := r.png(tt.p, "overhead"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/frame")
}
