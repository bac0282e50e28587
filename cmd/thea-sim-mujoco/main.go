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
	srv := newServer(s)
	if opts.Scene == "kitchen" {
		srv = newKitchenServer(s)
	}
	stdio := server.NewStdioServer(srv)
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
	fs.StringVar(&o.Scene, "scene", "tabletop", "tabletop (an arm, a mug, a plate, a bin) or kitchen (a mobile manipulator, a counter with a drawer)")
	fs.Uint64Var(&o.Seed, "seed", 1, "the episode's seed: object poses, friction and mass are drawn from it")
	fs.StringVar(&o.Task, "task", "", "the episode's task, judged by the judge tool: tabletop mug_in_bin (default), mug_on_plate or lift_mug; kitchen drawer_closed (default) or drawer_open")
	friction := fs.String("friction", "0.1..0.6", "the friction coefficient of the fingers and what they hold (the mug, the drawer's handle), a range A..B or one value")
	mass := fs.String("mass", "0.15..0.35", "the mug's mass in kg, a range A..B or one value")
	drawer := fs.String("drawer-friction", "2..14", "the kitchen drawer's dry friction in newtons, a range A..B or one value")
	fs.Float64Var(&o.GripN, "grip", 0, "the fingers' force limit in newtons (0: 4 on the tabletop, 10 in the kitchen)")
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
	if o.DrawerFriction, err = parseSpan("drawer-friction", *drawer); err != nil {
		return o, err
	}
	scenes := map[string]struct {
		grip float64
		task string
	}{"tabletop": {4, "mug_in_bin"}, "kitchen": {10, "drawer_closed"}}
	def, known := scenes[o.Scene]
	if !known {
		return o, fmt.Errorf("--scene %q: want tabletop or kitchen", o.Scene)
	}
	if o.GripN == 0 {
		o.GripN = def.grip
	}
	if o.Task == "" {
		o.Task = def.task
	}
	if o.GripN < 0 || o.GripN > 100 {
		return o, fmt.Errorf("--grip %g: want 0 < N ≤ 100", o.GripN)
	}
	if err := checkTask(o.Scene, o.Task); err != nil {
		return o, fmt.Errorf("--task: %w", err)
	}
	return o, nil
}
