package rosbridgetest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gofrs/flock"

	"github.com/thea-harness/thea/internal/testtime"
)

// roslibDir holds the roslib check: package.json, package-lock.json and
// check.mjs. CI installs its node_modules with `npm ci`.
const roslibDir = "testdata/roslib"

// TestRoslibCrossCheck runs roslib, the reference rosbridge client, against
// the fake: whole messages, and every message above 200 bytes in fragments.
// It proves the fake speaks rosbridge as real deployments do, so the Go
// client tested against it is not tuned to a home-made dialect.
func TestRoslibCrossCheck(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the roslib cross-check needs Node.js 20+ and npm (CI installs them)")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed: the roslib cross-check needs Node.js 20+ and npm (CI installs them)")
	}
	installRoslib(t, npm)
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"whole", Options{}},
		{"fragmented", Options{FragmentSize: 200}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, err := Start(t.Context(), "127.0.0.1:0", tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(60*time.Second))
			defer cancel()
			cmd := exec.CommandContext(ctx, node, "check.mjs", srv.URL())
			cmd.Dir = roslibDir
			cmd.Env = append(os.Environ(), fmt.Sprintf("ROSLIB_STEP_TIMEOUT_MS=%d", testtime.Scale(15*time.Second).Milliseconds()))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("roslib check failed: %v\n%s\nserver log: %q", err, out, srv.State().Errors)
			}
			for _, want := range []string{"ok subscribe /scan (null ranges)", "ok publish /cmd_vel", "ok rosapi",
				"ok goal with feedback and result", "ok cancel a goal", "ok cancelAllGoals"} {
				if !strings.Contains(string(out), want) {
					t.Errorf("roslib output lacks %q:\n%s", want, out)
				}
			}
			st := srv.State()
			if st.GoalsSucceeded < 1 || st.GoalsCanceled < 2 {
				t.Errorf("goals: %d succeeded, %d canceled; want ≥1 and ≥2", st.GoalsSucceeded, st.GoalsCanceled)
			}
			if !hasSubscription(st, SubscriptionState{Topic: "/odom", Type: TypeOdometry, ThrottleRate: 50, QueueLength: 1, Compression: "none"}) {
				t.Errorf("roslib's /odom subscribe (throttle 50, queue 1) not seen as such: %+v", st.Subscriptions)
			}
			if tc.opts.FragmentSize > 0 && st.FragmentsSent == 0 {
				t.Error("no fragments were sent: the fragmented run checked nothing")
			}
		})
	}
}

// TestRoslibArmCrossCheck runs roslib against the fake arm: its topics
// (a raw image, detections, tf, the safety sensors), rosapi's view of its
// graph, its skill and controller actions, and the dashboard stop.
func TestRoslibArmCrossCheck(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the roslib cross-check needs Node.js 20+ and npm (CI installs them)")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not installed: the roslib cross-check needs Node.js 20+ and npm (CI installs them)")
	}
	installRoslib(t, npm)
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"whole", Options{Robot: RobotArm, ArmMotion: 300 * time.Millisecond}},
		{"fragmented", Options{Robot: RobotArm, ArmMotion: 300 * time.Millisecond, FragmentSize: 200}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, err := Start(t.Context(), "127.0.0.1:0", tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(60*time.Second))
			defer cancel()
			cmd := exec.CommandContext(ctx, node, "arm.mjs", srv.URL())
			cmd.Dir = roslibDir
			cmd.Env = append(os.Environ(), fmt.Sprintf("ROSLIB_STEP_TIMEOUT_MS=%d", testtime.Scale(15*time.Second).Milliseconds()))
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("roslib arm check failed: %v\n%s\nserver log: %q", err, out, srv.State().Errors)
			}
			for _, want := range []string{"ok subscribe wrist camera (raw rgb8)", "ok subscribe /detections", "ok rosapi (arm graph)",
				"ok pick with feedback and result", "ok follow joint trajectory", "ok dashboard stop halts a motion"} {
				if !strings.Contains(string(out), want) {
					t.Errorf("roslib output lacks %q:\n%s", want, out)
				}
			}
			st := srv.State()
			if st.Arm == nil || st.Arm.DashboardStops != 1 || st.Arm.Mug != "gripper" {
				t.Errorf("arm after the check: %+v", st.Arm)
			}
		})
	}
}

func hasSubscription(st State, want SubscriptionState) bool {
	for _, s := range st.Subscriptions {
		if s == want {
			return true
		}
	}
	return false
}

// installRoslib runs `npm ci` in roslibDir unless node_modules is there
// (CI's .ci/run installs it first).
func installRoslib(t *testing.T, npm string) {
	t.Helper()
	installed := func() bool {
		_, err := os.Stat(filepath.Join(roslibDir, "node_modules", "roslib", "package.json"))
		return err == nil
	}
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(3*time.Minute))
	defer cancel()
	// Two test runs at once in one checkout would both install, and one
	// read the other's half-written files: the first installs, under a
	// lock, and the other, waiting for it, finds it done (a check before
	// the lock could see an install half done).
	lock := flock.New(filepath.Join(roslibDir, ".install.lock"))
	if ok, err := lock.TryLockContext(ctx, 50*time.Millisecond); err != nil || !ok {
		t.Fatalf("locking %s for npm ci: %v", roslibDir, err)
	}
	defer func() { _ = lock.Unlock() }()
	if installed() {
		return
	}
	cmd := exec.CommandContext(ctx, npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund")
	cmd.Dir = roslibDir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s (roslib for the cross-check): %v\n%s", roslibDir, err, out)
	}
}
