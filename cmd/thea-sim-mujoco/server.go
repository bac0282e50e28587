//go:build mujoco && cgo

package main

import (
	"context"
	"fmt"
	"runtime"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/thea-harness/thea/internal/simtools"
)

const version = "0.1.0"

// options are the command line's: what a seed may vary and what to serve.
type options struct {
	Scene          string // tabletop or kitchen
	Seed           uint64
	Task           string
	Friction, Mass span
	DrawerFriction span // the kitchen drawer's dry friction, N
	GripN          float64
	Render         bool
	Width, Height  int
	IntrusionAfter int // the operator reaches into the curtain after this many physical calls (0: never)
}

// simulator owns the episode. MuJoCo and the EGL context are used from
// one goroutine locked to one OS thread (a render context is bound to
// it); every tool call is a job sent to it, so calls run one at a time.
type simulator struct {
	opts  options
	jobs  chan func()
	t     *tabletop // the scene: t or k
	k     *kitchen
	r     *renderer
	task  string
	runID int
}

func newSimulator(ctx context.Context, opts options) (*simulator, error) {
	s := &simulator{opts: opts, jobs: make(chan func()), task: opts.Task}
	started := make(chan error, 1)
	go s.loop(ctx, started)
	if err := <-started; err != nil {
		return nil, err
	}
	return s, nil
}

func (s *simulator) loop(ctx context.Context, started chan<- error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := s.build(s.opts.Seed); err != nil {
		started <- err
		return
	}
	defer s.closeScene()
	if s.opts.Render {
		var err error
		if s.r, err = newRenderer(s.phys(), s.opts.Width, s.opts.Height); err != nil {
			started <- err
			return
		}
		defer s.r.close()
	}
	started <- nil
	for {
		select {
		case <-ctx.Done():
			return
		case job := <-s.jobs:
			job()
		}
	}
}

// do runs f on the simulation's thread.
func (s *simulator) do(ctx context.Context, f func() (*mcp.CallToolResult, error)) (*mcp.CallToolResult, error) {
	type reply struct {
		res *mcp.CallToolResult
		err error
	}
	done := make(chan reply, 1)
	select {
	case s.jobs <- func() { r, err := f(); done <- reply{r, err} }:
	case <-ctx.Done():
		return nil, fmt.Errorf("the simulation is busy: %w", ctx.Err())
	}
	r := <-done
	return r.res, r.err
}

// physical wraps a motion: the operator's scripted intrusion, a fresh run
// id, and a MuJoCo error as a failed call that names it.
func (s *simulator) physical(act func() (envelope, error)) (*mcp.CallToolResult, error) {
	e, err := act()
	if err != nil {
		return simtools.Result(simtools.Fail("the simulation failed: %v", err))
	}
	s.runID++
	e["run_id"] = simtools.RunID(s.runID)
	if s.t == nil {
		return simtools.Result(e)
	}
	s.t.calls++
	if s.opts.IntrusionAfter > 0 && s.t.calls >= s.opts.IntrusionAfter {
		if err := s.t.p.setMocap(s.t.operator, [3]float64{curtainX, 0, 0.15}); err != nil {
			return nil, fmt.Errorf("the operator's hand: %w", err)
		}
		if err := s.t.p.forward(); err != nil {
			return simtools.Result(simtools.Fail("the simulation failed: %v", err))
		}
	}
	return simtools.Result(e)
}

type pickArgs struct {
	ObjectName string `json:"object_name" jsonschema:"The object to pick up: mug."`
}

type placeArgs struct {
	ObjectName string `json:"object_name" jsonschema:"The held object."`
	Target     string `json:"target" jsonschema:"Where to put it: bin (in) or plate (on)."`
}

type moveArgs struct {
	X float64 `json:"x" jsonschema:"Tool point x in metres (world frame, away from the operator)."`
	Y float64 `json:"y" jsonschema:"Tool point y in metres."`
	Z float64 `json:"z" jsonschema:"Tool point height above the table in metres."`
}

type observeArgs struct {
	RunID string `json:"run_id,omitempty" jsonschema:"Optional run id of an earlier motion; echoed so the observation is evidence for it."`
}

type judgeArgs struct {
	ObjectName string `json:"object_name,omitempty" jsonschema:"With pick_up: the object that must be held."`
	Target     string `json:"target,omitempty" jsonschema:"With place: bin or plate, where the object must rest."`
	Task       string `json:"task,omitempty" jsonschema:"The benchmark task whose success to judge (default: the episode's task)."`
}

type resetArgs struct {
	Seed uint64 `json:"seed" jsonschema:"The episode's seed: object poses, friction and mass."`
	Task string `json:"task,omitempty" jsonschema:"mug_in_bin, mug_on_plate or lift_mug (default: the --task flag)."`
}

type noArgs struct{}

// motion runs a physical act on the simulation's thread (see physical).
func (s *simulator) motion(ctx context.Context, act func() (envelope, error)) (*mcp.CallToolResult, error) {
	return s.do(ctx, func() (*mcp.CallToolResult, error) { return s.physical(act) })
}

// addTool serves a tool whose arguments decode into A (its input schema);
// arguments that do not decode are a failure naming them, and serve is not
// called.
func addTool[A any](srv *server.MCPServer, name, desc string, serve func(context.Context, A) (*mcp.CallToolResult, error)) {
	srv.AddTool(mcp.NewTool(name, mcp.WithDescription(desc), mcp.WithInputSchema[A]()),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a, bad := simtools.Bind[A](req)
			if bad != nil {
				return simtools.Result(bad)
			}
			return serve(ctx, a)
		})
}

// newMCPServer is the MCP server of either scene, without its tools.
func newMCPServer() *server.MCPServer {
	return server.NewMCPServer("thea-sim-mujoco", version, server.WithRecovery(), server.WithToolCapabilities(false))
}

// addClearance serves get_clearance, which answers with read's distances.
func addClearance(srv *server.MCPServer, s *simulator, desc string, read func() envelope) {
	srv.AddTool(mcp.NewTool("get_clearance", mcp.WithDescription(desc), mcp.WithInputSchema[noArgs]()),
		func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return s.do(ctx, func() (*mcp.CallToolResult, error) { return simtools.Result(simtools.OK(read())) })
		})
}

// newServer serves the tabletop's tools over MCP.
func newServer(s *simulator) *server.MCPServer {
	srv := newMCPServer()
	addTool(srv, "pick_up", descPick, func(ctx context.Context, a pickArgs) (*mcp.CallToolResult, error) {
		return s.motion(ctx, func() (envelope, error) { return s.t.pickUp(a.ObjectName) })
	})
	addTool(srv, "place", descPlace, func(ctx context.Context, a placeArgs) (*mcp.CallToolResult, error) {
		return s.motion(ctx, func() (envelope, error) { return s.t.place(a.ObjectName, a.Target) })
	})
	addTool(srv, "move", descMove, func(ctx context.Context, a moveArgs) (*mcp.CallToolResult, error) {
		return s.motion(ctx, func() (envelope, error) { return s.t.move(a.X, a.Y, a.Z) })
	})
	addClearance(srv, s, descClearance, s.clearance)
	addTool(srv, "judge", descJudge, func(ctx context.Context, a judgeArgs) (*mcp.CallToolResult, error) {
		return s.do(ctx, func() (*mcp.CallToolResult, error) { return simtools.Result(s.judge(a)) })
	})
	addSceneTools(srv, s, descObserve)
	return srv
}

// addSceneTools adds the tools every scene has: observe (described by
// observeDesc), the benchmark bridge's reset, and stop.
func addSceneTools(srv *server.MCPServer, s *simulator, observeDesc string) {
	addTool(srv, "observe", observeDesc, func(ctx context.Context, a observeArgs) (*mcp.CallToolResult, error) {
		return s.do(ctx, func() (*mcp.CallToolResult, error) { return s.observeResult(a.RunID) })
	})
	srv.AddTool(mcp.NewTool("reset", mcp.WithDescription(descReset), mcp.WithInputSchema[resetArgs]()),
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if _, sent := req.GetArguments()["seed"]; !sent {
				return simtools.Result(simtools.Fail("seed: required"))
			}
			a, bad := simtools.Bind[resetArgs](req)
			if bad != nil {
				return simtools.Result(bad)
			}
			return s.do(ctx, func() (*mcp.CallToolResult, error) { return simtools.Result(s.reset(a)) })
		})
	srv.AddTool(simtools.StopTool(descStop),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			// Every scripted motion completes within its own call: when stop
			// is served nothing is moving.
			return simtools.Result(simtools.Stopped())
		})
}

func (s *simulator) clearance() envelope {
	curtain := 2 * curtainHalfY
	for _, z := range []float64{0.05, 0.15, 0.25} {
		if d, _ := s.t.p.ray([3]float64{curtainX, -curtainHalfY, z}, [3]float64{0, 1, 0}, -1); d >= 0 && d < curtain {
			curtain = d
		}
	}
	return envelope{"down": round3(s.t.clearanceDown()), "curtain": round3(curtain)}
}

// judge is the verify tool: the verdict read from the simulation's state.
func (s *simulator) judge(a judgeArgs) envelope {
	verdict := func(ok bool, good, bad string) envelope {
		if ok {
			return simtools.OK(envelope{"verdict": envelope{"status": "success", "reason": good, "confidence": 1}})
		}
		return simtools.OK(envelope{"verdict": envelope{"status": "failure", "reason": bad, "confidence": 1}})
	}
	switch {
	case a.Target == "bin":
		return verdict(s.t.inBin() && !s.t.between(), "the mug rests in the bin", "the mug is not in the bin")
	case a.Target == "plate":
		return verdict(s.t.onPlate() && !s.t.between(), "the mug rests on the plate", "the mug is not on the plate")
	case a.Target != "":
		return simtools.Fail("target %q: want bin or plate", a.Target)
	case a.ObjectName != "":
		return verdict(a.ObjectName == "mug" && s.t.lifted(), "the mug is held above the table", "the "+a.ObjectName+" is not held between the fingers")
	}
	task := a.Task
	if task == "" {
		task = s.task
	}
	done, what, err := s.t.taskDone(task)
	if err != nil {
		return simtools.Fail("%v", err)
	}
	return verdict(done, what, "not yet: "+what+" is false")
}

// reset rebuilds the scene from a seed: the benchmark bridge's reset.
func (s *simulator) reset(a resetArgs) envelope {
	task := a.Task
	if task == "" {
		task = s.opts.Task
	}
	if err := checkTask(s.opts.Scene, task); err != nil {
		return simtools.Fail("%v", err)
	}
	old := *s
	if err := s.build(a.Seed); err != nil {
		s.t, s.k = old.t, old.k
		return simtools.Fail("reset: %v", err)
	}
	if s.r != nil {
		if err := s.r.rebind(s.phys()); err != nil {
			s.closeScene()
			s.t, s.k = old.t, old.k
			return simtools.Fail("reset: %v", err)
		}
	}
	old.closeScene()
	s.task, s.runID = task, 0
	return simtools.OK(envelope{"seed": a.Seed, "task": task})
}

// build makes the scene of the options from seed (replacing t or k).
func (s *simulator) build(seed uint64) error {
	if s.opts.Scene == "kitchen" {
		k, err := newKitchen(newKitchenParams(seed, s.opts.Friction, s.opts.DrawerFriction, s.opts.GripN))
		s.k = k
		return err
	}
	t, err := newTabletop(newParams(seed, s.opts.Friction, s.opts.Mass, s.opts.GripN))
	s.t = t
	return err
}

func (s *simulator) closeScene() {
	if s.t != nil {
		s.t.close()
	}
	if s.k != nil {
		s.k.close()
	}
}

func (s *simulator) phys() *physics {
	if s.k != nil {
		return s.k.p
	}
	return s.t.p
}

// checkTask says whether a scene has a task.
func checkTask(scene, task string) error {
	tasks := map[string][]string{"tabletop": {"mug_in_bin", "mug_on_plate", "lift_mug"}, "kitchen": {"drawer_open", "drawer_closed"}}[scene]
	for _, t := range tasks {
		if t == task {
			return nil
		}
	}
	return fmt.Errorf("task %q: the %s scene has %s", task, scene, strings.Join(tasks, ", "))
}
