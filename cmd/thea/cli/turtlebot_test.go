package cli_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// TestTurtlebotEpisode runs the ROS example's scripted episode, as `make
// demo-ros` does, against the fake TurtleBot behind rosbridge: every tool
// answers, the robot ends docked, and the task ends with the final answer.
func TestTurtlebotEpisode(t *testing.T) {
	srv, err := rosbridgetest.Start(t.Context(), "127.0.0.1:0", rosbridgetest.Options{NavSpeed: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	dir := t.TempDir()
	for _, name := range []string{"spec.cue", "episode.yaml"} {
		b, err := os.ReadFile(filepath.Join("../../../examples/turtlebot", name))
		if err != nil {
			t.Fatal(err)
		}
		text := strings.ReplaceAll(string(b), "ws://127.0.0.1:9090", srv.URL())
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	evs := runTask(t, filepath.Join(dir, "spec.cue"), "Go to the window at (2, 0.5), then come back and dock.")
	var ok []string
	for _, ev := range evs {
		if ev.Kind == runlog.EventToolResult && ev.Result != nil {
			if !ev.Result.Success {
				t.Errorf("%s failed: %s", ev.Tool, ev.Result.Reason)
			}
			ok = append(ok, ev.Tool)
		}
	}
	if want := []string{"navigate_to", "drive", "navigate_to", "dock"}; !slices.Equal(ok, want) {
		t.Fatalf("tool results %v, want %v", ok, want)
	}
	if st := srv.State(); !st.Docked || st.MaxMotions != 1 {
		t.Fatalf("fake state: docked %v, most motions at once %d", st.Docked, st.MaxMotions)
	}
}

// thea sim <kind> runs the fake a toolset kind offers, a program of its
// own found on PATH (rosbridge's, whose own flag parsing answers here), and
// names the kinds that have one when asked for another.
func TestSimRunsAKindsFake(t *testing.T) {
	simOnPath(t)
	code, _, stderr := run(t, "sim", "rosbridge", "-no-such-flag")
	if code == 0 || !strings.Contains(stderr, "no-such-flag") || !strings.Contains(stderr, "thea sim rosbridge: exit status 2") {
		t.Fatalf("sim rosbridge with a bad flag: code %d, stderr %q", code, stderr)
	}
	code, _, stderr = run(t, "sim", "nosuch")
	if code == 0 || !strings.Contains(stderr, `unknown command "nosuch"`) || !strings.Contains(stderr, "rosbridge") {
		t.Fatalf("sim nosuch: code %d, stderr %q", code, stderr)
	}
}
