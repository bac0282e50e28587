package bodysuite_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/internal/faultserver"
	"github.com/thea-harness/thea/toolsets/rosbridge"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// The rosbridge transport's row: its fault server is the fake rosbridge
// serving the fault contract (rosbridgetest's faultcontract.go), in a
// subprocess of this test binary kept up by a supervisor process, as a
// launch file's respawn keeps rosbridge_server up: a crash drops the socket,
// the supervisor starts the server again on the same port, and the
// toolset's client reconnects. The start modes of faultserver.StartFile
// apply to every server the supervisor starts.
//
// The kind does not start its back-end (it dials a URL), so the kill -9
// test does not apply; rosbridge leaves no last words on a socket.

const (
	// rosSuperviseEnv makes the test binary a supervisor of fault
	// rosbridge servers recording into the directory it names.
	rosSuperviseEnv = "THEA_BODY_ROSFAULT_SUPERVISE"
	// rosChildEnv makes the test binary one fault rosbridge server on the
	// address it names.
	rosChildEnv = "THEA_BODY_ROSFAULT_CHILD"
	// rosRobotEnv is the fake's robot profile for the servers a
	// supervisor starts ("" the TurtleBot).
	rosRobotEnv = "THEA_BODY_ROSFAULT_ROBOT"
	// ignoreCancel is the URL query that makes the fake ignore this
	// toolset's cancels: a stop path that does nothing, so that only the
	// kill path (the zero velocity, the dropped socket) ends a motion, as
	// the MCP row's toolset without a stop tool.
	ignoreCancel = "/?cancel=ignore"
	// rosStopName is the kind's stop path in sentences (its Profile).
	rosStopName = "cancel (cancel_action_goal for a goal, the zero message for a publish)"
)

func rosbridgeTransport() transport {
	return transport{
		name: "rosbridge",
		kind: rosbridge.Kind,
		toolset: func(self, dir string) schema.Toolset {
			return schema.Toolset{Kind: "rosbridge", StartTimeout: schema.Duration(testtime.Scale(3 * time.Second)),
				Config: rosbridge.Section{URL: superviseRosFault(self, dir) + ignoreCancel, Rosbridge: rosBlock(rosFaultSection(testtime.Scale(100 * time.Millisecond)))}}
		},
		stop: func(ts *schema.Toolset, mode string, timeout time.Duration) {
			sec := ts.Config.(rosbridge.Section)
			base := strings.TrimSuffix(sec.URL, ignoreCancel)
			sec.URL = base + ignoreCancel
			if mode == "ok" {
				sec.URL = base
			}
			sec.Rosbridge = rosBlock(rosFaultSection(timeout))
			ts.Config = sec
		},
		yaml: func(self, dir, stop, stopTimeout string) (string, []string) {
			url := superviseRosFault(self, dir)
			if stop != "ok" {
				url += ignoreCancel
			}
			d, err := time.ParseDuration(stopTimeout)
			if err != nil || stop == "" {
				d = testtime.Scale(100 * time.Millisecond)
			}
			sec, err := json.Marshal(rosFaultSection(d))
			if err != nil {
				panic(err)
			}
			return fmt.Sprintf("    kind: rosbridge\n    url: %q\n    start_timeout: %s\n    rosbridge: %s\n", url, testtime.Scale(3*time.Second), sec), nil
		},
		stopRecord: func(string) (string, string, string) { return runlog.StopViaCancel, "", rosStopName },
		// A cancel whose result never comes fails in the kind's words.
		stopFailed: func(string) string { return "but no result came" },
		stopped: func(env runlog.Envelope) bool {
			r, _ := env.Value["result"].(map[string]any)
			return r["stopped"] == true
		},
		killSays: "kills the base back-end",
		observeFaults: map[string][]string{
			"silent": {"no message on " + rosbridgetest.FaultOdomTopic, "within its max_age"},
			"nan":    {"the position or orientation is null"},
		},
		// Silent first: an observation reads each topic's latest message,
		// so once a NaN pose newer than the last motion is cached, a topic
		// gone silent still fails on that message (null), not on silence.
		observeOrder: []string{"silent", "nan"},
		linger:       func(*schema.Toolset) {}, // the kind starts no process to linger
		serve:        serveRosFault,
	}
}

// rosBlock is a rosbridge block decoded as Load decodes it, defaults
// filled in; the fault contract's blocks are fixed, so one that does not
// decode is the test's own mistake.
func rosBlock(m map[string]any) rosbridge.Config {
	cfg, err := rosbridge.DecodeConfig(m)
	if err != nil {
		panic(fmt.Sprintf("the fault contract's rosbridge block does not decode: %v", err))
	}
	return cfg
}

// rosFaultSection is the rosbridge block of the fault contract's toolset;
// cancel bounds its stop path's cancel.
func rosFaultSection(cancel time.Duration) map[string]any {
	faultArgs := map[string]any{"fault": map[string]any{"type": "string", "optional": true}, "n": map[string]any{"type": "number", "optional": true}}
	moveArgs := map[string]any{"ms": map[string]any{"type": "number"}}
	for k, v := range faultArgs {
		moveArgs[k] = v
	}
	return map[string]any{
		"cmd_vel":        rosbridgetest.FaultCmdVel,
		"cancel_timeout": cancel.String(),
		"reconnect":      map[string]any{"initial": "5ms", "max": "50ms"},
		"tools": map[string]any{
			"move_base": map[string]any{"description": "a base motion of ms milliseconds", "args": moveArgs,
				"action": map[string]any{"name": rosbridgetest.FaultMoveAction, "type": "thea_fault/action/Move",
					"goal": "{ms: args.ms, fault: args.fault, n: args.n}"}},
			"crash": map[string]any{"description": "begins a motion, then the server exits",
				"action": map[string]any{"name": rosbridgetest.FaultCrashGoal, "type": "thea_fault/action/Crash", "goal": "{}"}},
			"probe": map[string]any{"description": "a read-only call that misbehaves as fault says", "args": faultArgs,
				"service": map[string]any{"name": rosbridgetest.FaultService, "type": "thea_fault/srv/Probe", "request": "{fault: args.fault, n: args.n}"}},
			"pid": map[string]any{"description": "the server's process id",
				"service": map[string]any{"name": rosbridgetest.FaultPidService, "type": "thea_fault/srv/Pid"}},
		},
		"observation": map[string]any{"max_age": testtime.Scale(500 * time.Millisecond).String(),
			"pose": map[string]any{"topic": rosbridgetest.FaultOdomTopic}},
	}
}

// superviseRosFault starts a supervisor of fault rosbridge servers
// recording into dir and returns its URL. The supervisor ends with this
// process, or once dir is gone (the test's temporary directory removed).
func superviseRosFault(self, dir string) string { return superviseRosRobot(self, dir, "") }

// superviseRosRobot is superviseRosFault with the fake's robot profile
// ("" the TurtleBot, rosbridgetest.RobotArm the arm).
func superviseRosRobot(self, dir, robot string) string {
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Env = append(os.Environ(), rosSuperviseEnv+"="+dir, rosRobotEnv+"="+robot)
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = dieWithParent()
	out, err := cmd.StdoutPipe()
	if err != nil {
		panic(err)
	}
	if err := cmd.Start(); err != nil {
		panic(fmt.Sprintf("starting the rosbridge fault supervisor: %v", err))
	}
	go func() { _ = cmd.Wait() }()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		panic(fmt.Sprintf("the rosbridge fault supervisor printed no URL: %v", err))
	}
	return strings.TrimSpace(line)
}

// serveRosFault runs the supervisor or a server when the environment asks.
func serveRosFault() (int, bool) {
	if addr := os.Getenv(rosChildEnv); addr != "" {
		return rosFaultChild(addr, os.Getenv(rosSuperviseEnv)), true
	}
	if dir := os.Getenv(rosSuperviseEnv); dir != "" {
		return rosFaultSupervisor(dir), true
	}
	return 0, false
}

// rosFaultSupervisor picks a port, prints its URL, and keeps a fault
// server on it, starting a new one 100ms after one exits, until dir is
// gone.
func rosFaultSupervisor(dir string) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	addr := ln.Addr().String()
	_ = ln.Close() // each server binds it again
	if err := notePid(dir, os.Getpid()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Println("ws://" + addr)
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	for {
		cmd := exec.Command(self, "-test.run=^$")
		cmd.Env = append(os.Environ(), rosChildEnv+"="+addr)
		cmd.Stderr = os.Stderr
		cmd.SysProcAttr = dieWithParent()
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		_ = notePid(dir, cmd.Process.Pid)
		exited := make(chan struct{})
		go func() {
			_ = cmd.Wait()
			_ = os.Remove(filepath.Join(dir, pidsDir, strconv.Itoa(cmd.Process.Pid)))
			close(exited)
		}()
	wait:
		for {
			select {
			case <-exited:
				break wait
			case <-time.After(50 * time.Millisecond):
				if _, err := os.Stat(dir); err != nil {
					_ = cmd.Process.Kill()
					<-exited
					return 0
				}
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// rosFaultChild is one fault server: the start mode of dir first (exit:
// exits at once; hang: holds the port and never answers a handshake; slow:
// holds it that long first), then the fake serving the fault contract.
func rosFaultChild(addr, dir string) int {
	b, _ := os.ReadFile(filepath.Join(dir, faultserver.StartFile))
	mode, arg, _ := strings.Cut(strings.TrimSpace(string(b)), " ")
	switch mode {
	case "exit":
		fmt.Fprintln(os.Stderr, "rosbridge fault server: exiting at start as asked")
		return 4
	case "hang", "slow":
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		if mode == "hang" {
			select {} // until killed
		}
		d := 500 * time.Millisecond
		if ms, err := strconv.Atoi(arg); err == nil {
			d = time.Duration(ms) * time.Millisecond
		}
		time.Sleep(d)
		_ = ln.Close()
	}
	args := []string{"-addr", addr, "-fault-dir", dir, "-tick", "10ms"}
	if robot := os.Getenv(rosRobotEnv); robot != "" {
		args = append(args, "-robot", robot)
	}
	return rosbridgetest.Main(context.Background(), args, os.Stdin, io.Discard, os.Stderr)
}

// pidsDir, in a fault directory, names the supervisors and servers alive
// there, so the test can end them before its directory is removed.
const pidsDir = ".rosfault-pids"

func notePid(dir string, pid int) error {
	if err := os.MkdirAll(filepath.Join(dir, pidsDir), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, pidsDir, strconv.Itoa(pid)), nil, 0o644)
}

// reapFaultServers ends, when the test ends and before dir is removed,
// every supervisor and server noted in dir (only processes of this test
// binary: a pid reused by another program is left alone), and waits for
// each to be gone, so none writes into dir while it is removed.
func reapFaultServers(t testing.TB, dir string) {
	t.Cleanup(func() {
		self, err := os.Executable()
		if err != nil {
			t.Error(err)
			return
		}
		// Again until none is left: a supervisor may start a server
		// between the listing and its own end.
		for {
			var live []int
			entries, _ := os.ReadDir(filepath.Join(dir, pidsDir))
			for _, e := range entries {
				pid, err := strconv.Atoi(e.Name())
				if err != nil || gone(pid) {
					continue
				}
				if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); err == nil && exe == self {
					live = append(live, pid)
				}
			}
			if len(live) == 0 {
				return
			}
			for _, pid := range live {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			for _, pid := range live {
				testtime.Wait(t, fmt.Sprintf("fault server %d ending", pid), func() bool { return gone(pid) })
			}
		}
	})
}
