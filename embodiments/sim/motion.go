package sim

import (
	"math"
	"slices"
	"strings"
)

func (s *simulator) poseJSON() map[string]any {
	return map[string]any{"x": round3(s.pose.Pos.X), "y": round3(s.pose.Pos.Y),
		"theta_deg": round3(s.pose.ThetaDeg), "room": s.w.roomAt(s.pose.Pos)}
}

// approaches lists the standoff poses around a footprint, facing it: the
// middle of each allowed side, or the point level with focus when given (an
// object on the furniture).
func (s *simulator) approaches(f *Furniture, focus *Vec) []Pose {
	fp, gap := f.Footprint, f.StandoffM+s.w.Robot.RadiusM
	c := fp.Center()
	if focus != nil {
		c = fp.Nearest(*focus)
	}
	all := []struct {
		side string
		pose Pose
	}{
		{"west", Pose{Vec{fp.Min.X - gap, c.Y}, 0}},
		{"south", Pose{Vec{c.X, fp.Min.Y - gap}, 90}},
		{"east", Pose{Vec{fp.Max.X + gap, c.Y}, 180}},
		{"north", Pose{Vec{c.X, fp.Max.Y + gap}, -90}},
	}
	var out []Pose
	for _, a := range all {
		if (f.Front == "" || f.Front == a.side) && s.w.free(a.pose.Pos) {
			out = append(out, a.pose)
		}
	}
	return out
}

// navigateTo plans on the occupancy grid to a standoff pose facing the target
// (furniture, object or room) and moves there.
func (s *simulator) navigateTo(target string) result {
	run := s.nextRun()
	var goals []Pose
	// distance measures, after arrival, how far the target is (nil for a room).
	var distance func() float64
	// focus is an object's position: the approach nearest it wins, so the
	// arm ends up as close as the standoff allows.
	var focus *Vec
	switch {
	case s.w.furniture(target) != nil:
		f := s.w.furniture(target)
		goals = s.approaches(f, nil)
		distance = func() float64 { return f.Footprint.Dist(s.pose.Pos) }
	case s.objects[target] != nil:
		if s.held == target {
			return fail(run, "already holding %s; navigate_to a furniture or room to place it", target)
		}
		pl := s.objects[target]
		host := s.w.furniture(pl.Target)
		if pl.Relation == "in" {
			host = s.w.containerOwner(pl.Target)
		}
		goals, focus = s.approaches(host, &pl.Position), &pl.Position
		distance = func() float64 { return s.pose.Pos.Dist(pl.Position) }
	case s.w.containerOwner(target) != nil:
		f := s.w.containerOwner(target)
		goals = s.approaches(f, nil)
		distance = func() float64 { return f.Footprint.Dist(s.pose.Pos) }
	default:
		i := slices.IndexFunc(s.w.Rooms, func(r Room) bool { return r.Name == target })
		if i < 0 {
			return fail(run, "unknown target %q: not a furniture, object, drawer or room of this map; known: %s", target, strings.Join(s.knownTargets(), ", "))
		}
		if p, found := s.freeNear(s.w.Rooms[i]); found {
			goals = []Pose{{p, math.NaN()}}
		}
	}
	best, bestLen, bestNear := -1, math.Inf(1), math.Inf(1)
	var bestPath []Vec
	for i, g := range goals {
		path, l, found := s.grid.plan(s.pose.Pos, g.Pos)
		if !found {
			continue
		}
		near := 0.0
		if focus != nil {
			near = math.Round(g.Pos.Dist(*focus)*100) / 100 // centimetres: ties go to the shorter path
		}
		if near < bestNear || (near == bestNear && l < bestLen) {
			best, bestLen, bestNear, bestPath = i, l, near, path
		}
	}
	if best < 0 {
		return fail(run, "no path to %s: every approach pose is blocked or unreachable from here; try another target or move_base out of a tight spot", target)
	}
	if !s.succeeds("navigate_to") {
		return fail(run, "navigation aborted: the local planner lost its localisation on the way to %s; the robot did not move; try again", target)
	}
	goal := goals[best]
	if math.IsNaN(goal.ThetaDeg) { // a room: face the way we came in
		goal.ThetaDeg = s.pose.ThetaDeg
		if n := len(bestPath); n >= 2 && bestPath[n-1].Dist(bestPath[n-2]) > 1e-9 {
			goal.ThetaDeg = bearingDeg(bestPath[n-2], bestPath[n-1])
		}
	}
	s.pose = Pose{goal.Pos, normDeg(goal.ThetaDeg)}
	r := ok(result{"run_id": run, "arrived_at": target, "pose": s.poseJSON(), "path_length_m": round3(bestLen)})
	if distance != nil {
		r["distance_to_target_m"] = round3(distance())
	}
	return r
}

// freeNear is the free grid cell nearest a room's centroid, inside the room.
func (s *simulator) freeNear(r Room) (Vec, bool) {
	c := r.Outline.Centroid()
	best, bestD := Vec{}, math.Inf(1)
	for j := range s.grid.ny {
		for i := range s.grid.nx {
			p := s.grid.center(i, j)
			if d := p.Dist(c); d < bestD && s.grid.free[j*s.grid.nx+i] && r.Outline.Contains(p) {
				best, bestD = p, d
			}
		}
	}
	return best, !math.IsInf(bestD, 1)
}

func (s *simulator) knownTargets() []string {
	var names []string
	for _, f := range s.w.Furniture {
		names = append(names, f.Name)
	}
	names = append(names, s.containerNames()...)
	for _, o := range s.w.Objects {
		names = append(names, o.Name)
	}
	for _, r := range s.w.Rooms {
		names = append(names, r.Name)
	}
	return names
}

// directionDeg maps move_base's direction to an angle from the heading. The
// base is a differential drive: it drives along its heading only, so left
// and right are not directions of a translation (rotate first).
func directionDeg(d string) (float64, bool) {
	switch d {
	case "forward":
		return 0, true
	case "backward":
		return 180, true
	}
	return 0, false
}

// maxMove bounds one direct translation; the harness's profile usually clamps
// far below it.
const maxMove = 5.0

// moveBase translates the base directly, stopping at contact.
func (s *simulator) moveBase(direction string, distance float64) result {
	run := s.nextRun()
	rel, known := directionDeg(direction)
	if !known {
		return fail(run, "direction %q: must be forward or backward (a differential drive cannot move sideways; rotate first)", direction)
	}
	if !(distance > 0 && distance <= maxMove) {
		return fail(run, "distance_m %v: must be greater than 0 and at most %v", distance, maxMove)
	}
	dir := heading(s.pose.ThetaDeg + rel)
	free := sweep(s.pose.Pos, dir, distance, s.w.free)
	s.pose.Pos = s.pose.Pos.Add(dir.Scale(free))
	if free < distance-1e-6 {
		r := fail(run, "stopped at contact with %s after %.2f m of the %.2f m requested; back off or go around", s.nearestObstacle(), free, distance)
		r["moved_m"], r["pose"] = round3(free), s.poseJSON()
		return r
	}
	return ok(result{"run_id": run, "moved_m": round3(free), "pose": s.poseJSON()})
}

// rotate turns in place; a disc never collides by turning. One call turns at
// most a full circle; the spec's profile may allow less per call (a hook
// enforces it).
func (s *simulator) rotate(degrees float64) result {
	run := s.nextRun()
	if !(degrees >= -360 && degrees <= 360) {
		return fail(run, "degrees %v: one turn is at most a full circle, within -360..360 (positive turns left)", degrees)
	}
	s.pose.ThetaDeg = normDeg(s.pose.ThetaDeg + degrees)
	return ok(result{"run_id": run, "pose": s.poseJSON()})
}
