package toolsets

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/body"
)

// Garbage on stdout (at start and mid-call) is ignored, counted and sampled
// as events: the first three lines and then the 10th, 100th...; the samples
// are quoted; the call's answer still arrives.
func TestFaultStdoutGarbageCountedAndSampled(t *testing.T) {
	self, dir := newFaultDir(t)
	setStart(t, dir, "garbage")
	spec := faultSpec(self, dir)
	var evs events
	ts := startFault(t, spec, body.Shared{OnSafety: evs.add})
	wantSuccess(t, call(t, ts, "probe", `{"fault":"garbage","n":48}`))
	wantSuccess(t, call(t, ts, "probe", `{}`))
	got := evs.texts(SafetyStdoutGarbage)
	// 2 banner lines + 48: reports at 1, 2, 3, 10.
	if len(got) != 4 || !strings.HasPrefix(got[3], "10 non-JSON line(s) on stdout so far") {
		t.Fatalf("garbage events %d: %q", len(got), got)
	}
	if !strings.Contains(got[0], `faultserver 0.0.1 starting`) || !strings.Contains(got[1], `\x1b[31mWARNING`) {
		t.Fatalf("samples: %q", got[:2])
	}
	for _, s := range got {
		noRawEscape(t, "a garbage event", s)
	}
	// The total is reported when the connection ends.
	wantFailure(t, call(t, ts, "probe", `{"fault":"crash"}`), "crashed during probe")
	got = evs.texts(SafetyStdoutGarbage)
	if last := got[len(got)-1]; last != "50 non-JSON line(s) on stdout in all (ignored)" {
		t.Fatalf("total: %q", last)
	}
}
