//go:build mujoco && cgo

package main

import (
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/thea-harness/thea/internal/simtools"
)

// cameraNames are the cameras rendered, in order, when --render is on.
func (s *simulator) cameraNames() []string {
	if s.k != nil {
		return []string{"overview", "wrist"}
	}
	return []string{"overhead", "wrist"}
}

// observation is the documented Observation (docs/formats/backend-contract.md)
// read from the simulation: every field is known here, so every field is sent.
func (s *simulator) observation() envelope {
	t := s.t
	tp, m := t.toolPoint(), t.p.bodyPos(t.mug)
	pl, b := t.p.bodyPos(t.plate), t.p.bodyPos(t.bin)
	mugRel, mugOn := "on", "table"
	switch {
	case t.held == "mug" || t.lifted():
		mugRel, mugOn = "in", "gripper"
	case t.inBin():
		mugRel, mugOn = "in", "bin"
	case t.onPlate():
		mugRel, mugOn = "on", "plate"
	}
	held := ""
	if t.lifted() {
		held = "mug"
	}
	broken := t.curtainBroken()
	curtain := "clear"
	if broken {
		curtain = "broken"
	}
	det := func(name, class, rel, target string, p [3]float64) envelope {
		return envelope{"name": name, "class": class, "relation": rel, "target": target, "visible": true,
			"camera": "overhead", "frame": "world", "position": envelope{"x": round3(p[0]), "y": round3(p[1])}}
	}
	return envelope{
		"success":      true,
		"summary":      fmt.Sprintf("The mug is %s the %s; the gripper is %s; the light curtain is %s.", mugRel, mugOn, openWord(t.fingersClosed()), curtain),
		"held":         held,
		"gripper":      envelope{"opening_m": round3(t.openingM()), "closed": t.fingersClosed()},
		"end_effector": envelope{"frame": "world", "x": round3(tp[0]), "y": round3(tp[1]), "z": round3(tp[2])},
		"joints": envelope{
			"x": round3(t.p.qpos(t.jx)), "y": round3(t.p.qpos(t.jy)), "z": round3(t.p.qpos(t.jz)),
			"left_finger": round3(t.p.qpos(t.jleft)), "right_finger": round3(t.p.qpos(t.jright)),
		},
		"detections": []envelope{
			det("mug", "mug", mugRel, mugOn, m),
			det("plate", "plate", "on", "table", pl),
			det("bin", "bin", "on", "table", b),
		},
		"state": envelope{
			"light_curtain_broken": broken,
			"task":                 s.task,
			"sim_time_s":           round3(t.p.time()),
		},
	}
}

func openWord(closed bool) string {
	if closed {
		return "closed"
	}
	return "open"
}

func (s *simulator) observeResult(runID string) (*mcp.CallToolResult, error) {
	var e envelope
	if s.k != nil {
		e = s.kitchenObservation()
	} else {
		e = s.observation()
	}
	if runID != "" {
		if !simtools.KnownRunID(runID, s.runID) {
			return simtools.Result(simtools.Fail("run_id %q: no such run (the last is run-%d)", runID, s.runID))
		}
		e["run_id"] = runID
	}
	if s.r == nil {
		return simtools.Result(e)
	}
	var images []envelope
	var pngs [][]byte
	for _, cam := range s.cameraNames() {
		png, err := s.r.png(s.phys(), cam)
		if err != nil {
			return simtools.Result(simtools.Fail("camera %s: %v", cam, err))
		}
		pngs = append(pngs, png)
		images = append(images, envelope{"camera": cam, "mime": "image/png", "width": s.opts.Width, "height": s.opts.Height})
	}
	e["images"] = images
	res, err := simtools.Result(e)
	if err != nil {
		return nil, err
	}
	for i, cam := range s.cameraNames() {
		res.Content = append(res.Content, simtools.Image(cam, pngs[i]))
	}
	return res, nil
}
