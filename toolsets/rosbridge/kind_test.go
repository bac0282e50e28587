package rosbridge_test

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/internal/testtime"
)

// TestTurtlebotTools drives the fake TurtleBot (a subprocess) through every
// kind of declared tool and reads its observation and clearance.
func TestTurtlebotTools(t *testing.T) {
	p := fake(t)
	r := start(t, p.URL, opts{})

	obs := r.call(t, "observe", `{}`)
	wantSuccess(t, obs)
	if _, ok := obs.Value["pose"]; !ok || len(obs.Images) != 1 || obs.Images[0].MIME != "image/jpeg" {
		t.Fatalf("observation %v with %d images", obs.Value, len(obs.Images))
	}
	if st := obs.Value["state"].(map[string]any); st["battery"] == nil {
		t.Fatalf("no battery in %v", st)
	}
	cl := r.call(t, "clearance", `{}`)
	wantSuccess(t, cl)
	reading := cl.Value["clearance"].(map[string]any)
	for _, s := range []string{"front", "back", "left", "right"} {
		if v, ok := reading[s].(float64); !ok || v <= 0 {
			t.Fatalf("sector %s: %v in %v", s, v, reading)
		}
	}

	nav := r.call(t, "navigate_to", `{"x": 1.0, "y": 0.5}`)
	wantSuccess(t, nav)
	if nav.Value["status"] != "succeeded" {
		t.Fatalf("navigate_to: %v", nav.Value)
	}
	st := state(t, p.URL)
	if st.GoalsSucceeded != 1 || st.X < 0.9 {
		t.Fatalf("fake state after navigate: %+v", st)
	}

	wantFailure(t, r.call(t, "navigate_to", `{"x": 40.0, "y": 0.5}`), "aborted", "outside the map")

	drive := r.call(t, "drive", `{"speed": 0.2, "distance": 0.04}`)
	wantSuccess(t, drive)
	// The fake takes the publications from the socket in its own time: its
	// state, read over HTTP, may not have the last one yet.
	testtime.Wait(t, "the zero velocity last on cmd_vel", func() bool {
		st = state(t, p.URL)
		return st.CmdVel >= 2 && st.LastCmdVel == [2]float64{0, 0}
	})
	wantFailure(t, r.call(t, "drive", `{"speed": 0.1, "distance": 5.0}`), "max_duration")

	wantFailure(t, r.call(t, "dock", `{}`), "dock not in range")
	if st := state(t, p.URL); st.MaxMotions > 1 {
		t.Fatalf("two motions at once: %+v", st)
	}
}

// TestToken: the token named by token_env goes on the handshake; a wrong
// one is refused at start with a clear error that never shows the token.
func TestToken(t *testing.T) {
	p := fake(t, "-token", "s3cret-token")
	t.Setenv("TB_TOKEN", "s3cret-token")
	r := start(t, p.URL, opts{tokenEnv: "TB_TOKEN"})
	wantSuccess(t, r.call(t, "dock", `{}`))

	t.Setenv("TB_TOKEN", "wrong-token")
	_, err := startErr(t, p.URL, opts{tokenEnv: "TB_TOKEN"})
	if err == nil || strings.Contains(err.Error(), "wrong-token") || !strings.Contains(err.Error(), "401") {
		t.Fatalf("a wrong token: %v", err)
	}
}
