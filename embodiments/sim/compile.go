package sim

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// compile turns a decoded world file into a World, checking every field and
// naming the field and the reason in each error.

func point(field string, v []float64) (Vec, error) {
	if len(v) != 2 {
		return Vec{}, fmt.Errorf("%s: want [x, y] in metres, got %d numbers", field, len(v))
	}
	if slices.ContainsFunc(v, func(c float64) bool { return math.IsNaN(c) || math.IsInf(c, 0) }) {
		return Vec{}, fmt.Errorf("%s: %v: want finite numbers of metres", field, v)
	}
	return Vec{v[0], v[1]}, nil
}

func rect(field string, r rectFile) (Rect, error) {
	lo, err := point(field+".min", r.Min)
	if err != nil {
		return Rect{}, err
	}
	hi, err := point(field+".max", r.Max)
	if err != nil {
		return Rect{}, err
	}
	if lo.X >= hi.X || lo.Y >= hi.Y {
		return Rect{}, fmt.Errorf("%s: min %v must be below and left of max %v", field, r.Min, r.Max)
	}
	return Rect{lo, hi}, nil
}

func compile(f *worldFile) (*World, error) {
	w := &World{Name: f.Name, SuccessProbability: map[string]float64{}}
	if w.Name == "" {
		return nil, errors.New("name: required")
	}
	names := map[string]string{} // every name is unique across kinds
	claim := func(field, name string) error {
		if name == "" {
			return fmt.Errorf("%s.name: required", field)
		}
		if prev, ok := names[name]; ok {
			return fmt.Errorf("%s.name: %q is already used by %s; names must be unique", field, name, prev)
		}
		names[name] = field
		return nil
	}
	if len(f.Rooms) == 0 {
		return nil, errors.New("rooms: at least one room is required")
	}
	for i, r := range f.Rooms {
		field := fmt.Sprintf("rooms[%d]", i)
		if err := claim(field, r.Name); err != nil {
			return nil, err
		}
		room := Room{Name: r.Name}
		switch {
		case r.Rect != nil && r.Polygon != nil:
			return nil, fmt.Errorf("%s (%s): give rect or polygon, not both", field, r.Name)
		case r.Rect != nil:
			rc, err := rect(field+".rect", *r.Rect)
			if err != nil {
				return nil, err
			}
			room.Outline = rectPolygon(rc)
		case len(r.Polygon) >= 3:
			for j, p := range r.Polygon {
				v, err := point(fmt.Sprintf("%s.polygon[%d]", field, j), p)
				if err != nil {
					return nil, err
				}
				room.Outline = append(room.Outline, v)
			}
		default:
			return nil, fmt.Errorf("%s (%s): a rect or a polygon of at least 3 points is required", field, r.Name)
		}
		w.Rooms = append(w.Rooms, room)
	}
	w.Bounds = w.Rooms[0].Outline.Bounds()
	for _, r := range w.Rooms[1:] {
		b := r.Outline.Bounds()
		w.Bounds = Rect{Vec{math.Min(w.Bounds.Min.X, b.Min.X), math.Min(w.Bounds.Min.Y, b.Min.Y)},
			Vec{math.Max(w.Bounds.Max.X, b.Max.X), math.Max(w.Bounds.Max.Y, b.Max.Y)}}
	}
	if err := checkExtent(w.Bounds); err != nil {
		return nil, err
	}
	for i, wf := range f.Walls {
		segs, err := compileWall(fmt.Sprintf("walls[%d]", i), wf)
		if err != nil {
			return nil, err
		}
		w.Walls = append(w.Walls, segs...)
	}
	containers := map[string]int{} // container name → furniture index
	for i, ff := range f.Furniture {
		field := fmt.Sprintf("furniture[%d]", i)
		if err := claim(field, ff.Name); err != nil {
			return nil, err
		}
		field += " (" + ff.Name + ")"
		fp, err := rect(field+".footprint", ff.Footprint)
		if err != nil {
			return nil, err
		}
		fu := Furniture{Name: ff.Name, Class: ff.Class, Room: ff.Room, Footprint: fp, Surface: ff.Surface, StandoffM: defaultStandoff}
		if fu.Class == "" {
			fu.Class = ff.Name
		}
		if !slices.ContainsFunc(w.Rooms, func(r Room) bool { return r.Name == ff.Room }) {
			return nil, fmt.Errorf("%s.room: %q is not a declared room", field, ff.Room)
		}
		switch ff.Front {
		case "", "north", "south", "east", "west":
			fu.Front = ff.Front
		default:
			return nil, fmt.Errorf("%s.front: %q must be north, south, east or west", field, ff.Front)
		}
		if ff.StandoffM != nil {
			if *ff.StandoffM < 0 {
				return nil, fmt.Errorf("%s.standoff_m: must not be negative", field)
			}
			fu.StandoffM = *ff.StandoffM
		}
		for j, c := range ff.Containers {
			cf := fmt.Sprintf("%s.containers[%d]", field, j)
			if err := claim(cf, c.Name); err != nil {
				return nil, err
			}
			switch c.State {
			case "open", "closed":
			default:
				return nil, fmt.Errorf("%s.state: %q must be open or closed", cf, c.State)
			}
			fu.Containers = append(fu.Containers, Container{Name: c.Name, Open: c.State == "open"})
			containers[c.Name] = i
		}
		w.Furniture = append(w.Furniture, fu)
	}
	for i, of := range f.Objects {
		field := fmt.Sprintf("objects[%d]", i)
		if err := claim(field, of.Name); err != nil {
			return nil, err
		}
		field += " (" + of.Name + ")"
		o := Object{Name: of.Name, Class: of.Class, Relation: of.Relation, Target: of.Target}
		if o.Class == "" {
			o.Class = o.Name
		}
		var host *Furniture
		switch of.Relation {
		case "on":
			k := slices.IndexFunc(w.Furniture, func(fu Furniture) bool { return fu.Name == of.Target })
			if k < 0 || !w.Furniture[k].Surface {
				return nil, fmt.Errorf("%s.target: %q is not furniture with surface: true", field, of.Target)
			}
			host = &w.Furniture[k]
		case "in":
			k, ok := containers[of.Target]
			if !ok {
				return nil, fmt.Errorf("%s.target: %q is not a declared container", field, of.Target)
			}
			host = &w.Furniture[k]
		default:
			return nil, fmt.Errorf("%s.relation: %q must be on or in", field, of.Relation)
		}
		o.Position = host.Footprint.Center()
		if of.Relation == "in" {
			o.Position = inset(host.Footprint, host.frontMid())
		}
		if of.Position != nil {
			p, err := point(field+".position", of.Position)
			if err != nil {
				return nil, err
			}
			if !host.Footprint.Contains(p) {
				return nil, fmt.Errorf("%s.position: %v lies outside the footprint of %s", field, of.Position, host.Name)
			}
			o.Position = p
		}
		w.Objects = append(w.Objects, o)
	}
	if err := compileRobot(w, f.Robot); err != nil {
		return nil, err
	}
	for tool, p := range f.SuccessProbability {
		if !slices.Contains(probabilisticTools(), tool) {
			return nil, fmt.Errorf("success_probability.%s: unknown tool; one of %v", tool, probabilisticTools())
		}
		if p < 0 || p > 1 || math.IsNaN(p) {
			return nil, fmt.Errorf("success_probability.%s: %v must be within [0, 1]", tool, p)
		}
	}
	w.DetectionProbability = 1
	if p := f.DetectionProbability; p != nil {
		if *p < 0 || *p > 1 || math.IsNaN(*p) {
			return nil, fmt.Errorf("detection_probability: %v must be within [0, 1]", *p)
		}
		w.DetectionProbability = *p
	}
	for _, t := range probabilisticTools() {
		w.SuccessProbability[t] = 1
		if p, ok := f.SuccessProbability[t]; ok {
			w.SuccessProbability[t] = p
		}
	}
	return w, nil
}

func compileWall(field string, wf wallFile) ([]Segment, error) {
	a, err := point(field+".from", wf.From)
	if err != nil {
		return nil, err
	}
	b, err := point(field+".to", wf.To)
	if err != nil {
		return nil, err
	}
	length := a.Dist(b)
	if length == 0 {
		return nil, fmt.Errorf("%s: from and to are the same point", field)
	}
	th := defaultWallThickness
	if wf.ThicknessM != nil {
		if *wf.ThicknessM <= 0 {
			return nil, fmt.Errorf("%s.thickness_m: must be positive", field)
		}
		th = *wf.ThicknessM
	}
	dir := b.Sub(a).Scale(1 / length)
	doors := slices.Clone(wf.Doorways)
	slices.SortFunc(doors, func(x, y doorwayFile) int { return cmpFloat(x.AtM, y.AtM) })
	var segs []Segment
	pos := 0.0
	for j, d := range doors {
		lo, hi := d.AtM-d.WidthM/2, d.AtM+d.WidthM/2
		if d.WidthM <= 0 || lo < pos || hi > length {
			return nil, fmt.Errorf("%s.doorways[%d]: at_m %v width_m %v must be a positive width inside the wall (length %.2f m) and not overlap another doorway", field, j, d.AtM, d.WidthM, length)
		}
		if lo > pos {
			segs = append(segs, Segment{a.Add(dir.Scale(pos)), a.Add(dir.Scale(lo)), th})
		}
		pos = hi
	}
	if pos < length {
		segs = append(segs, Segment{a.Add(dir.Scale(pos)), b, th})
	}
	return segs, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func compileRobot(w *World, rf robotFile) error {
	if rf.RadiusM <= 0 {
		return errors.New("robot.radius_m: must be positive")
	}
	if rf.ReachM <= 0 {
		return errors.New("robot.reach_m: must be positive")
	}
	w.Robot = Robot{RadiusM: rf.RadiusM, ReachM: rf.ReachM,
		Start: Pose{Vec{rf.Start.X, rf.Start.Y}, normDeg(rf.Start.ThetaDeg)}}
	if len(rf.Cameras) == 0 {
		return errors.New("robot.cameras: at least one camera is required")
	}
	seen := map[string]bool{}
	for i, c := range rf.Cameras {
		field := fmt.Sprintf("robot.cameras[%d]", i)
		if c.Name == "" || seen[c.Name] {
			return fmt.Errorf("%s.name: required and unique, got %q", field, c.Name)
		}
		seen[c.Name] = true
		if c.Width < 16 || c.Height < 16 || c.Width > 4096 || c.Height > 4096 {
			return fmt.Errorf("%s (%s): width and height must be within 16..4096 pixels, got %dx%d", field, c.Name, c.Width, c.Height)
		}
		if c.FovDeg <= 0 || c.FovDeg > 360 {
			return fmt.Errorf("%s.fov_deg: %v must be within (0, 360]", field, c.FovDeg)
		}
		cam := Camera{Name: c.Name, Width: c.Width, Height: c.Height, FovDeg: c.FovDeg, View: "closeup", RangeM: rf.ReachM + 0.2}
		if i == 0 {
			cam.View, cam.RangeM = "map", defaultMapRange
		}
		if c.RangeM != nil {
			if *c.RangeM <= 0 {
				return fmt.Errorf("%s.range_m: must be positive", field)
			}
			cam.RangeM = *c.RangeM
		}
		w.Robot.Cameras = append(w.Robot.Cameras, cam)
	}
	if w.roomAt(w.Robot.Start.Pos) == "" {
		return fmt.Errorf("robot.start: (%.2f, %.2f) is in no room", rf.Start.X, rf.Start.Y)
	}
	if d := w.obstacleDist(w.Robot.Start.Pos); d < w.Robot.RadiusM {
		return fmt.Errorf("robot.start: (%.2f, %.2f) overlaps an obstacle (%.2f m from it, radius %.2f m)", rf.Start.X, rf.Start.Y, d, w.Robot.RadiusM)
	}
	return nil
}

// maxGridCells bounds the planner's occupancy grid (gridRes cells over the
// rooms' bounds, built when the simulator starts): 100 m × 100 m, some
// 17 MB per plan. Without it a world's coordinates sized the grid, and
// rooms 1e6 m wide asked for 10^14 cells.
const maxGridCells = 1_000_000

func checkExtent(b Rect) error {
	w, h := b.Max.X-b.Min.X, b.Max.Y-b.Min.Y
	if cells := math.Ceil(w/gridRes) * math.Ceil(h/gridRes); !(cells <= maxGridCells) {
		return fmt.Errorf("rooms: together they span %g × %g m; the simulator plans on a %g m grid of at most %d cells (e.g. %g m × %g m)",
			w, h, gridRes, maxGridCells, math.Sqrt(maxGridCells)*gridRes, math.Sqrt(maxGridCells)*gridRes)
	}
	return nil
}
