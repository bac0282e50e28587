//go:build mujoco && cgo

package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/mark3labs/mcp-go/server"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run parses the flags and serves MCP over stdio until stdin closes.
func run(ctx context.Context, args []string, in io.Reader, out, errw io.Writer) int {
	opts, err := parseFlags(args, errw)
	if err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		fmt.Fprintf(errw, "thea-sim-mujoco: %v\n", err)
		return 2
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s, err := newSimulator(ctx, opts)
	if err != nil {
		fmt.Fprintf(errw, "thea-sim-mujoco: %v\n", err)
		return 1
	}
	stdio := server.NewStdioServer(newServer(s))
	stdio.SetErrorLogger(log.New(errw, "thea-sim-mujoco: ", log.LstdFlags))
	if err := stdio.Listen(ctx, in, out); err != nil && ctx.Err() == nil && err != io.EOF {
		fmt.Fprintf(errw, "thea-sim-mujoco: %v\n", err)
		return 1
	}
	return 0
}

func parseFlags(args []string, errw io.Writer) (options, error) {
	fs := flag.NewFlagSet("thea-sim-mujoco", flag.ContinueOnError)
	fs.SetOutput(errw)
	var o options
	fs.Uint64Var(&o.Seed, "seed", 1, "the episode's seed: object poses, friction and mass are drawn from it")
	fs.StringVar(&o.Task, "task", "mug_in_bin", "the episode's task, judged by the judge tool: mug_in_bin, mug_on_plate or lift_mug")
	friction := fs.String("friction", "0.1..0.6", "the fingers' and the mug's friction coefficient, a range A..B or one value")
	mass := fs.String("mass", "0.15..0.35", "the mug's mass in kg, a range A..B or one value")
	fs.Float64Var(&o.GripN, "grip", 4, "the fingers' force limit in newtons")
	fs.BoolVar(&o.Render, "render", false, "render the overhead and wrist cameras into every observation (EGL)")
	fs.IntVar(&o.Width, "width", 320, "image width")
	fs.IntVar(&o.Height, "height", 240, "image height")
	fs.IntVar(&o.IntrusionAfter, "intrusion-after", 0, "the operator reaches into the light curtain after this many motions (0: never)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected argument %q (flags only)", fs.Arg(0))
	}
	var err error
	if o.Friction, err = parseSpan("friction", *friction); err != nil {
		return o, err
	}
	if o.Mass, err = parseSpan("mass", *mass); err != nil {
		return o, err
	}
	if o.GripN <= 0 || o.GripN > 100 {
		return o, fmt.Errorf("--grip %g: want 0 < N ≤ 100", o.GripN)
	}
	switch o.Task {
	case "mug_in_bin", "mug_on_plate", "lift_mug":
	default:
		return o, fmt.Errorf("--task %q: want mug_in_bin, mug_on_plate or lift_mug", o.Task)
	}
	return o, nil
}
