package sim

import (
	"fmt"
	"strings"

	"github.com/thea-harness/thea/world"
)

// readClearance takes the four-direction reading.
func (s *simulator) readClearance() world.Clearance {
	return world.Clearance{"front": round3(s.clearance(0)), "back": round3(s.clearance(180)),
		"left": round3(s.clearance(90)), "right": round3(s.clearance(-90))}
}

// detections lists, camera by camera, the objects each one sees and the
// detector reports (see World.DetectionProbability): a missed detection
// leaves the object out of the list, not out of the image.
func (s *simulator) detections() []world.Detection {
	var out []world.Detection
	for _, c := range s.w.Robot.Cameras {
		for _, o := range s.w.Objects {
			if !s.objectSeenBy(c, o.Name) || !s.detected() {
				continue
			}
			pl := s.objects[o.Name]
			out = append(out, world.Detection{Name: o.Name, Class: o.Class, Camera: c.Name,
				Relation: pl.Relation, Target: pl.Target, Room: s.w.roomAt(pl.Position),
				DistanceM: round3(s.pose.Pos.Dist(pl.Position)), Visible: true,
				Position: &world.Point{X: round3(pl.Position.X), Y: round3(pl.Position.Y)}})
		}
		out = append(out, s.drawerDetections(c)...)
	}
	return out
}

// drawerDetections are the drawers of each piece of furniture the camera
// sees, each in its furniture: the world knows which furniture a drawer
// belongs to, and a reader of the observation (the Scene Graph) then ties
// the drawer's state to it. Drawers are fixed parts of the map, not
// subject to the detector's misses (which also leaves every seed's random
// sequence as it was).
func (s *simulator) drawerDetections(c Camera) []world.Detection {
	var out []world.Detection
	for i := range s.w.Furniture {
		f := &s.w.Furniture[i]
		if len(f.Containers) == 0 {
			continue
		}
		near := f.Footprint.Nearest(s.pose.Pos)
		if !s.visible(c, near) {
			continue
		}
		at := f.frontMid()
		for _, ct := range f.Containers {
			out = append(out, world.Detection{Name: ct.Name, Class: "drawer", Camera: c.Name, Relation: "in", Target: f.Name,
				Room: f.Room, DistanceM: round3(s.pose.Pos.Dist(near)), Visible: true,
				Position: &world.Point{X: round3(at.X), Y: round3(at.Y)}})
		}
	}
	return out
}

// observation is the documented Observation of the current state.
func (s *simulator) observation(runID string) world.Observation {
	cl := s.readClearance()
	drawers := map[string]any{}
	for name, open := range s.open {
		drawers[name] = map[bool]string{true: "open", false: "closed"}[open]
	}
	obs := world.Observation{RunID: runID, Clearance: cl, Detections: s.detections(), Held: s.held,
		Pose:  &world.Pose{X: round3(s.pose.Pos.X), Y: round3(s.pose.Pos.Y), ThetaDeg: round3(s.pose.ThetaDeg), Room: s.w.roomAt(s.pose.Pos)},
		State: map[string]any{"drawers": drawers}}
	// The simulator knows everything it reports: an empty gripper is "held
	// nothing", no detections is "sees nothing", not "not reported".
	obs.SetKnown(world.FieldClearance, world.FieldDetections, world.FieldHeld, world.FieldState)
	for _, c := range s.w.Robot.Cameras {
		obs.Images = append(obs.Images, world.Image{Camera: c.Name, MIME: "image/png", Width: c.Width, Height: c.Height})
	}
	obs.Summary = s.summary(obs)
	return obs
}

// summary is the observation in one line of text.
func (s *simulator) summary(o world.Observation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "In the %s at (%.2f, %.2f) facing %.0f°; ", o.Pose.Room, o.Pose.X, o.Pose.Y, o.Pose.ThetaDeg)
	if o.Held != "" {
		fmt.Fprintf(&b, "holding %s; ", o.Held)
	} else {
		b.WriteString("gripper empty; ")
	}
	seen := map[string]bool{}
	var parts []string
	for _, d := range o.Detections {
		// The summary names the objects; drawers are parts of furniture.
		if d.Class == "drawer" {
			continue
		}
		if !seen[d.Name] {
			seen[d.Name] = true
			parts = append(parts, fmt.Sprintf("%s %s %s at %.2f m", d.Name, d.Relation, d.Target, d.DistanceM))
		}
	}
	if len(parts) == 0 {
		b.WriteString("sees no objects; ")
	} else {
		fmt.Fprintf(&b, "sees %s; ", strings.Join(parts, ", "))
	}
	fmt.Fprintf(&b, "clearance front %.2f m, back %.2f m, left %.2f m, right %.2f m.", o.Clearance["front"], o.Clearance["back"], o.Clearance["left"], o.Clearance["right"])
	return b.String()
}
