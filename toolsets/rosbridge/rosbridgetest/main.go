package rosbridgetest

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Main runs a fake rosbridge as a program: it prints its ws:// URL as the
// first line of stdout and serves until ctx ends, a SIGINT or SIGTERM, or
// (with -exit-on-stdin-eof) stdin closing, which is how a parent that died
// is noticed. It returns the exit code.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("thea sim rosbridge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o Options
	addr := fs.String("addr", "127.0.0.1:0", "address to listen on")
	fs.StringVar(&o.Token, "token", "", "require this bearer token on the handshake")
	fs.IntVar(&o.FragmentSize, "fragment-size", 0, "fragment messages longer than this many bytes")
	fs.DurationVar(&o.Tick, "tick", 0, "simulation step (default 20ms)")
	fs.Float64Var(&o.NavSpeed, "nav-speed", 0, "navigation speed in m/s (default 1)")
	fs.DurationVar(&o.CmdVelTimeout, "cmd-vel-timeout", 0, "stop the base when cmd_vel is this old (default: never)")
	fs.BoolVar(&o.Faults.DropMidGoal, "drop-mid-goal", false, "drop the socket after a goal's first feedback")
	fs.BoolVar(&o.Faults.IgnoreCancel, "ignore-cancel", false, "ignore goal cancels")
	fs.BoolVar(&o.Faults.NoResult, "no-result", false, "never send action results")
	fs.BoolVar(&o.Faults.Garbage, "garbage", false, "send garbage frames on connect and after service responses")
	fs.BoolVar(&o.Faults.KeepMovingAfterCancel, "keep-moving-after-cancel", false, "answer cancels but keep driving")
	fs.BoolVar(&o.Faults.BareNonFinite, "bare-nonfinite", false, "write inf and NaN in float arrays as bare tokens")
	fs.BoolVar(&o.Faults.HugeImageHeader, "huge-image-header", false, "publish camera frames whose header claims 60000x60000")
	fs.BoolVar(&o.Faults.EchoToken, "echo-token", false, "echo the bearer token in the dock service's message and odometry frame ids")
	fs.BoolVar(&o.Faults.EchoTokenRosapi, "echo-token-rosapi", false, "echo the bearer token in rosapi's answers (names, types, a definition's error)")
	fs.BoolVar(&o.Faults.EchoTokenTopics, "echo-token-topics", false, "fail rosapi/topics with an error quoting the Authorization header")
	fs.StringVar(&o.Robot, "robot", RobotTurtleBot, "the robot: turtlebot (Nav2) or arm (a UR-class tabletop arm)")
	fs.DurationVar(&o.ArmMotion, "arm-motion", 0, "how long one of the arm's skills moves (default 1s)")
	fs.BoolVar(&o.Faults.HangArm, "hang-arm", false, "arm goals move for ever and ignore their cancel; only the dashboard stop ends them")
	fs.BoolVar(&o.Faults.SkillFails, "skill-fails", false, "the skill action answers SUCCEEDED with success: false")
	fs.BoolVar(&o.Faults.NoActionDetails, "no-action-details", false, "serve no rosapi/action_goal_details")
	fs.StringVar(&o.FaultDir, "fault-dir", "", "also serve the fault suite's contract, recording into this directory")
	fs.Func("graph", "also list the topics and services of this JSON file ({topics, services, without}: GraphExtras)", func(p string) (err error) { o.Graph, err = ReadGraphExtras(p); return err })
	fs.Func("extra", "also publish the topics of this JSON file (a list of {topic, type, msg, every})", func(p string) (err error) { o.Extra, err = ReadExtra(p); return err })
	fs.Float64Var(&o.Noise, "noise", 0, "standard deviation in metres of the Gaussian noise on odometry and laser ranges (default: none)")
	fs.Uint64Var(&o.Seed, "seed", 0, "seed of the sensor noise")
	exitOnEOF := fs.Bool("exit-on-stdin-eof", false, "stop when stdin closes")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	o.Log = stderr
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv, err := Start(ctx, *addr, o)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintln(stdout, srv.URL())
	if *exitOnEOF {
		go func() {
			_, _ = io.Copy(io.Discard, stdin)
			stop()
		}()
	}
	<-ctx.Done()
	if err := srv.Close(); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// ChildEnv makes a test binary a fake rosbridge: its value is a JSON list
// of Main's arguments. A TestMain starts with
//
//	if code, ok := rosbridgetest.ChildMain(); ok {
//		os.Exit(code)
//	}
const ChildEnv = "THEA_ROSBRIDGETEST_ARGS"

// ChildMain runs Main when ChildEnv is set, with the process's own stdin,
// stdout and stderr; ok is false otherwise.
func ChildMain() (code int, ok bool) {
	v, set := os.LookupEnv(ChildEnv)
	if !set {
		return 0, false
	}
	var args []string
	if err := json.Unmarshal([]byte(v), &args); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", ChildEnv, err)
		return 2, true
	}
	return Main(context.Background(), args, os.Stdin, os.Stdout, os.Stderr), true
}

// readURL reads the first line a child prints: its URL.
func readURL(r io.Reader) (string, error) {
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		return "", fmt.Errorf("rosbridgetest child: no URL line: %w", err)
	}
	return line[:len(line)-1], nil
}
