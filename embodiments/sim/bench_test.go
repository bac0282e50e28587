package sim

import "testing"

// BenchmarkObserve is one full observation: clearance, detections and both
// camera PNGs at the household profile's sizes.
func BenchmarkObserve(b *testing.B) {
	s := newSimulator(household(b), 1)
	s.navigateTo("table")
	for b.Loop() {
		if _, err := s.observeResult(""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNavigate plans from the living room to the cabinet's front.
func BenchmarkNavigate(b *testing.B) {
	s := newSimulator(household(b), 1)
	start := s.pose
	for b.Loop() {
		s.pose = start
		if r := s.navigateTo("cabinet"); r["success"] != true {
			b.Fatal(r["reason"])
		}
	}
}

// BenchmarkClearance is one four-direction reading.
func BenchmarkClearance(b *testing.B) {
	s := newSimulator(household(b), 1)
	for b.Loop() {
		s.readClearance()
	}
}
