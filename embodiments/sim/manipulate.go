package sim

import (
	"slices"
	"strings"
)

// Manipulation checks its preconditions in the order a real grasping or
// placing policy would notice them, then draws the outcome from the seed.

func (s *simulator) tooFar(verb string, d float64) (string, bool) {
	if d <= s.w.Robot.ReachM+1e-9 {
		return "", false
	}
	return "too far from the target to " + verb + " (" + fmtM(d) + ", reach " + fmtM(s.w.Robot.ReachM) + "); move closer", true
}

func (s *simulator) pickUp(name string) result {
	run := s.nextRun()
	pl := s.objects[name]
	switch {
	case pl == nil:
		return fail(run, "object not visible: nothing called %q is in view; observe, then use a detected object's name", name)
	case s.held == name:
		return fail(run, "already holding %s", name)
	case s.held != "":
		return fail(run, "gripper not empty: holding %s; place it first", s.held)
	case pl.Relation == "in" && !s.open[pl.Target]:
		return fail(run, "the drawer is closed: %s is in %s; open_drawer(%q) first", name, pl.Target, pl.Target)
	}
	if !s.seenByAny(pl.Position) {
		return fail(run, "object not visible: %s is not in view of any camera; rotate toward it or navigate_to(%q)", name, name)
	}
	if reason, far := s.tooFar("grasp", s.pose.Pos.Dist(pl.Position)); far {
		return fail(run, "%s", reason)
	}
	if !s.succeeds("pick_up") {
		return fail(run, "grasp failed: %s slipped out of the gripper and is still %s the %s; try again", name, pl.Relation, pl.Target)
	}
	s.held = name
	pl.Relation, pl.Target = "held", ""
	return ok(result{"run_id": run, "held": name})
}

func (s *simulator) place(name, target, relation string) result {
	run := s.nextRun()
	if s.held != name {
		if s.held == "" {
			return fail(run, "not holding %s: the gripper is empty; pick_up(%q) first", name, name)
		}
		return fail(run, "not holding %s: the gripper holds %s", name, s.held)
	}
	var host *Furniture
	switch relation {
	case "on":
		host = s.w.furniture(target)
		if host == nil {
			return fail(run, "unknown target %q for relation on: not a furniture; known: %s", target, strings.Join(s.furnitureNames(), ", "))
		}
		if !host.Surface {
			return fail(run, "%s has no surface to place on; try relation \"in\" with one of its drawers", target)
		}
	case "in":
		host = s.w.containerOwner(target)
		if host == nil {
			return fail(run, "%q is not a container: place \"in\" one of %s, or \"on\" a surface", target, strings.Join(s.containerNames(), ", "))
		}
		if !s.open[target] {
			return fail(run, "the drawer is closed: open_drawer(%q) first", target)
		}
	default:
		return fail(run, "relation %q: must be on or in", relation)
	}
	if !s.furnitureSeen(host) {
		return fail(run, "target not visible: %s is not in view; rotate toward it or navigate_to(%q)", host.Name, host.Name)
	}
	if reason, far := s.tooFar("place", host.Footprint.Dist(s.pose.Pos)); far {
		return fail(run, "%s", reason)
	}
	if !s.succeeds("place") {
		return fail(run, "place failed: the release was unstable and %s is still held; try again", name)
	}
	s.held = ""
	s.objects[name] = &placement{Relation: relation, Target: target, Position: inset(host.Footprint, s.pose.Pos)}
	return ok(result{"run_id": run, "placed": name, "relation": relation, "target": target})
}

// inset is where a placed object lands: the footprint point nearest the
// robot, moved 0.15 m toward the footprint's centre.
func inset(r Rect, from Vec) Vec {
	p, c := r.Nearest(from), r.Center()
	d := c.Sub(p)
	if l := d.Len(); l > 0.15 {
		return p.Add(d.Scale(0.15 / l))
	}
	return c
}

// setDrawer opens (open true) or closes a drawer.
func (s *simulator) setDrawer(name string, open bool) result {
	run := s.nextRun()
	tool, state, was := "open_drawer", "open", "closed"
	if !open {
		tool, state, was = "close_drawer", "closed", "open"
	}
	host := s.w.containerOwner(name)
	if host == nil {
		return fail(run, "unknown drawer %q; drawers: %s", name, strings.Join(s.containerNames(), ", "))
	}
	if s.open[name] == open {
		return fail(run, "the drawer is already %s", state)
	}
	if !s.furnitureSeen(host) {
		return fail(run, "drawer not visible: the %s is not in view; rotate toward it or navigate_to(%q)", host.Name, host.Name)
	}
	if reason, far := s.tooFar("reach the handle", host.Footprint.Dist(s.pose.Pos)); far {
		return fail(run, "%s", reason)
	}
	if !s.succeeds(tool) {
		return fail(run, "the handle slipped: %s is still %s; try again", name, was)
	}
	s.open[name] = open
	return ok(result{"run_id": run, "drawer": name, "state": state})
}

func (s *simulator) furnitureNames() []string {
	var n []string
	for _, f := range s.w.Furniture {
		n = append(n, f.Name)
	}
	return n
}

func (s *simulator) containerNames() []string {
	var n []string
	for _, f := range s.w.Furniture {
		for _, c := range f.Containers {
			n = append(n, c.Name)
		}
	}
	return slices.Clip(n)
}
