package toolsets

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/thea-harness/thea/internal/callgate"
	"github.com/thea-harness/thea/runlog"
)

// Close while a call is in flight: the call returns a failure saying the
// toolset was closed, not that the back-end crashed; the body is left
// uncertain, since the motion was interrupted.
func TestMCPCloseDuringCall(t *testing.T) {
	f := newFixture(t)
	ts := f.start(t)
	done := make(chan runlog.Envelope, 1)
	go func() {
		done <- toolByName(t, ts, "move").Call(callgate.Through(t.Context()), json.RawMessage(`{"ms":60000}`))
	}()
	waitFile(t, f.started)
	if err := ts.Close(); err != nil {
		t.Fatal(err)
	}
	env := <-done
	wantFailure(t, env, "closed")
	if env.Success || strings.Contains(env.Reason, "crashed") {
		t.Fatalf("a call ended by Close reads as a crash: %q", env.Reason)
	}
	if u := ts.Uncertain(); !strings.Contains(u, "the session clos") {
		t.Fatalf("Close during a motion left the body certain: %q", u)
	}
	wantFailure(t, call(t, ts, "echo", `{"text":"x"}`), "closed")
}
