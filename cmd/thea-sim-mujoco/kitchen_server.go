//go:build mujoco && cgo

package main

import (
	"context"
	"fmt"
	"math"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/thea-harness/thea/internal/simtools"
)

// drawerName is the kitchen's one drawer.
const drawerName = "top_drawer"

type drawerArgs struct {
	Name string `json:"name" jsonschema:"The drawer's name: top_drawer."`
}

type baseMoveArgs struct {
	X float64 `json:"x" jsonschema:"Where to drive the base's centre, x in metres (the counter's front is at x = 1.2)."`
	Y float64 `json:"y" jsonschema:"y in metres."`
}

type kitchenJudgeArgs struct {
	Name  string `json:"name,omitempty" jsonschema:"With state: the drawer to judge."`
	State string `json:"state,omitempty" jsonschema:"open or closed: the state the drawer must be in."`
	Task  string `json:"task,omitempty" jsonschema:"The task whose success to judge (default: the episode's)."`
}

// newKitchenServer serves the kitchen's tools over MCP.
func newKitchenServer(s *simulator) *server.MCPServer {
	srv := newMCPServer()
	drawerTool := func(name, desc string, act func() (envelope, error)) {
		addTool(srv, name, desc, func(ctx context.Context, a drawerArgs) (*mcp.CallToolResult, error) {
			if a.Name != drawerName {
				return simtools.Result(simtools.Fail("name %q: the kitchen's drawer is %s", a.Name, drawerName))
			}
			return s.motion(ctx, act)
		})
	}
	drawerTool("open_drawer", descOpenDrawer, func() (envelope, error) { return s.k.openDrawer() })
	drawerTool("close_drawer", descCloseDrawer, func() (envelope, error) { return s.k.closeDrawer() })
	addTool(srv, "move", descMoveBase, func(ctx context.Context, a baseMoveArgs) (*mcp.CallToolResult, error) {
		return s.motion(ctx, func() (envelope, error) { return s.k.moveBase(a.X, a.Y) })
	})
	addClearance(srv, s, descBaseClearance, func() envelope {
		e := envelope{}
		for k, v := range s.k.clearance() {
			e[k] = v
		}
		return e
	})
	addTool(srv, "judge", descKitchenJudge, func(ctx context.Context, a kitchenJudgeArgs) (*mcp.CallToolResult, error) {
		return s.do(ctx, func() (*mcp.CallToolResult, error) { return simtools.Result(s.kitchenJudge(a)) })
	})
	addSceneTools(srv, s, descKitchenObserve)
	return srv
}

// kitchenJudge reads the drawer's state from its joint.
func (s *simulator) kitchenJudge(a kitchenJudgeArgs) envelope {
	want := a.State
	if want == "" {
		task := a.Task
		if task == "" {
			task = s.task
		}
		if err := checkTask("kitchen", task); err != nil {
			return simtools.Fail("%v", err)
		}
		want = map[string]string{"drawer_open": "open", "drawer_closed": "closed"}[task]
	} else if a.Name != "" && a.Name != drawerName {
		return simtools.Fail("name %q: the kitchen's drawer is %s", a.Name, drawerName)
	}
	if want != "open" && want != "closed" {
		return simtools.Fail("state %q: want open or closed", want)
	}
	got, out := s.k.drawerState(), math.Max(0, s.k.drawerOpenM())
	status, reason := "success", fmt.Sprintf("%s reads %s: %.2f m out of the counter", drawerName, got, out)
	if got != want {
		status = "failure"
		reason = fmt.Sprintf("%s reads %s, not %s: %.2f m out of the counter", drawerName, got, want, out)
	}
	return simtools.OK(envelope{"verdict": envelope{"status": status, "reason": reason, "confidence": 1}})
}

// kitchenObservation is the Observation of the kitchen: the base's pose
// and clearance, the gripper, the drawer's state.
func (s *simulator) kitchenObservation() envelope {
	k := s.k
	b := k.basePos()
	hx := k.handleX()
	clear := envelope{}
	for name, v := range k.clearance() {
		clear[name] = v
	}
	return envelope{
		"success":   true,
		"summary":   fmt.Sprintf("The base is at (%.2f, %.2f) facing the counter; the %s is %s.", b[0], b[1], drawerName, k.drawerState()),
		"pose":      envelope{"x": round3(b[0]), "y": round3(b[1]), "theta_deg": 0, "frame": "map"},
		"clearance": clear,
		"held":      "",
		"gripper":   envelope{"opening_m": round3(2*(0.06-0.006) - k.p.qpos(k.jl) - k.p.qpos(k.jr)), "closed": k.p.ctrl(k.al) > 0},
		"detections": []envelope{{"name": drawerName, "class": "drawer", "relation": "in", "target": "counter", "visible": true,
			"camera": "overview", "position": envelope{"x": round3(hx), "y": round3(k.params.DrawerY)}}},
		"state": envelope{
			"drawers":      envelope{drawerName: k.drawerState()},
			"drawer_out_m": round3(k.drawerOpenM()),
			"task":         s.task,
			"sim_time_s":   round3(k.p.time()),
		},
	}
}
