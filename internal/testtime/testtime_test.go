package testtime

import (
	"testing"
	"time"
)

func TestScale(t *testing.T) {
	base := Scale(time.Second)
	if base < time.Second {
		t.Fatalf("Scale(1s) = %v, below the unscaled value", base)
	}
	t.Setenv(ScaleEnv, "2")
	if got := Scale(time.Second); got != 2*base {
		t.Errorf("with %s=2: %v, want %v", ScaleEnv, got, 2*base)
	}
	t.Setenv(ScaleEnv, "nonsense")
	if got := Scale(time.Second); got != base {
		t.Errorf("a bad %s is ignored: %v, want %v", ScaleEnv, got, base)
	}
}

func TestWait(t *testing.T) {
	n := 0
	Wait(t, "three polls", func() bool { n++; return n == 3 })
	if n != 3 {
		t.Fatalf("polled %d times", n)
	}
}
