package sim

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"math"
)

// Palette: pale floors, wooden furniture, dark walls, red objects, a blue
// robot; chosen to stay legible to a vision-language model. Constants as
// functions: Go has no constant structs, and no package state may change.
func colOutside() color.RGBA   { return color.RGBA{170, 170, 170, 255} }
func colFurniture() color.RGBA { return color.RGBA{196, 160, 112, 255} }
func colEdge() color.RGBA      { return color.RGBA{110, 80, 40, 255} }
func colWall() color.RGBA      { return color.RGBA{40, 40, 40, 255} }
func colObject() color.RGBA    { return color.RGBA{210, 30, 30, 255} }
func colRobot() color.RGBA     { return color.RGBA{30, 80, 200, 255} }
func colFov() color.RGBA       { return color.RGBA{120, 160, 230, 255} }
func colText() color.RGBA      { return color.RGBA{0, 0, 0, 255} }
func colTextBg() color.RGBA    { return color.RGBA{255, 255, 255, 255} }
func colHeader() color.RGBA    { return color.RGBA{20, 20, 20, 255} }
func colWhite() color.RGBA     { return color.RGBA{255, 255, 255, 255} }
func colReach() color.RGBA     { return color.RGBA{40, 160, 60, 255} }

func roomColor(i int) color.RGBA {
	floors := [...]color.RGBA{{236, 232, 214, 255}, {218, 232, 222, 255}, {222, 226, 240, 255}, {240, 224, 226, 255}}
	return floors[i%len(floors)]
}

// renderPNG renders one camera's view of the current state.
func (s *simulator) renderPNG(c Camera) ([]byte, error) {
	var cv *canvas
	if c.View == "map" {
		cv = s.renderMap(c)
	} else {
		cv = s.renderCloseup(c)
	}
	var buf bytes.Buffer
	// Fast compression: an observation is encoded every turn, and images are
	// small anyway.
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, cv.img); err != nil {
		return nil, fmt.Errorf("encode png: %w", err)
	}
	return buf.Bytes(), nil
}

// drawScene draws floors, furniture (with drawer states), walls and the
// objects camera c sees.
func (s *simulator) drawScene(cv *canvas, c Camera, wallPx float64) {
	for i, r := range s.w.Rooms {
		cv.fillPoly(r.Outline, roomColor(i))
	}
	for _, f := range s.w.Furniture {
		pg := rectPolygon(f.Footprint)
		cv.fillPoly(pg, colFurniture())
		cv.outlinePoly(pg, 1.5, colEdge())
	}
	for _, wall := range s.w.Walls {
		cv.line(wall.A, wall.B, wallPx, colWall())
	}
	for _, r := range s.w.Rooms {
		// In the room's north-west corner, clear of the furniture.
		b := r.Outline.Bounds()
		q := cv.proj(Vec{b.Min.X, b.Max.Y})
		cv.label(int(math.Round(q.X))+5, int(math.Round(q.Y))+5, r.Name, colText(), colTextBg())
	}
	for _, f := range s.w.Furniture {
		lines := []string{f.Name}
		for _, ct := range f.Containers {
			state := "closed"
			if s.open[ct.Name] {
				state = "OPEN"
			}
			lines = append(lines, ct.Name+" "+state)
		}
		if c.View == "map" {
			// Name above the footprint, drawer states below it, so objects
			// drawn on top stay clear.
			cv.labelAt(Vec{f.Footprint.Center().X, f.Footprint.Max.Y}, -14, lines[0], colText(), colTextBg())
			for k, l := range lines[1:] {
				cv.labelAt(Vec{f.Footprint.Center().X, f.Footprint.Min.Y}, 1+13*k, l, colText(), colTextBg())
			}
			continue
		}
		// Close up (heading up), stack the lines inside the footprint just
		// beyond its edge nearest the robot, clear of the gripper.
		n := len(lines)
		for k, l := range lines {
			cv.labelAt(f.Footprint.Nearest(s.pose.Pos), -4-13*(n-k), l, colText(), colTextBg())
		}
	}
	for _, o := range s.w.Objects {
		if s.objectSeenBy(c, o.Name) {
			cv.disc(s.objects[o.Name].Position, 4, colObject())
			cv.labelAt(s.objects[o.Name].Position, 5, o.Name, colObject(), colTextBg())
		}
	}
}

// drawRobot draws the body outline and a triangle pointing along the heading.
func (s *simulator) drawRobot(cv *canvas, scale float64) {
	p, h := s.pose.Pos, heading(s.pose.ThetaDeg)
	side := heading(s.pose.ThetaDeg + 90)
	r := s.w.Robot.RadiusM
	cv.ring(p, r*scale, 2, colRobot())
	tri := Polygon{p.Add(h.Scale(r)), p.Add(h.Scale(-r * 0.6)).Add(side.Scale(r * 0.6)), p.Add(h.Scale(-r * 0.6)).Add(side.Scale(-r * 0.6))}
	cv.fillPoly(tri, colRobot())
}

// mapScale is the head view's pixels per metre.
const mapScale = 40

// renderMap is a top-down local map around the robot, north up: rooms,
// walls, furniture, the objects this camera sees, the robot, the camera's
// field of view and a scale bar.
func (s *simulator) renderMap(c Camera) *canvas {
	w, h := float64(c.Width), float64(c.Height)
	center := s.pose.Pos
	cv := newCanvas(c.Width, c.Height, colOutside(), func(p Vec) Vec {
		return Vec{w/2 + (p.X-center.X)*mapScale, h/2 - (p.Y-center.Y)*mapScale}
	})
	s.drawScene(cv, c, math.Max(2, 0.1*mapScale))
	for _, a := range []float64{-c.FovDeg / 2, c.FovDeg / 2} {
		cv.line(center, center.Add(heading(s.pose.ThetaDeg+a).Scale(c.RangeM)), 1, colFov())
	}
	s.drawRobot(cv, mapScale)
	cv.label(2, 1, fmt.Sprintf("%s | %s | (%.2f,%.2f) %.0fdeg", c.Name, s.w.roomAt(center), center.X, center.Y, s.pose.ThetaDeg), colWhite(), colHeader())
	// A north arrow: the map is north up.
	cv.pixelLine(Vec{w - 10, 34}, Vec{w - 10, 18}, 2, colText())
	cv.fillPixelPoly(Polygon{{w - 10, 14}, {w - 15, 22}, {w - 5, 22}}, colText())
	cv.label(c.Width-23, 22, "N", colText(), colTextBg())
	bar := Vec{8, h - 8}
	cv.pixelLine(bar, bar.Add(Vec{mapScale, 0}), 2, colText())
	cv.label(int(bar.X)+mapScale+4, int(bar.Y)-10, "1 m", colText(), colTextBg())
	return cv
}

// closeScale is the wrist view's pixels per metre.
const closeScale = 100

// renderCloseup is what lies within reach in front, robot-centric with the
// heading up: the gripper at the bottom edge, the reach arc, nearby
// furniture and the objects this camera sees, or the held object.
func (s *simulator) renderCloseup(c Camera) *canvas {
	w, h := float64(c.Width), float64(c.Height)
	p, fwd, left := s.pose.Pos, heading(s.pose.ThetaDeg), heading(s.pose.ThetaDeg+90)
	r := s.w.Robot.RadiusM
	cv := newCanvas(c.Width, c.Height, colOutside(), func(q Vec) Vec {
		d := q.Sub(p)
		return Vec{w/2 - d.Dot(left)*closeScale, h - 6 - (d.Dot(fwd)-r)*closeScale}
	})
	s.drawScene(cv, c, math.Max(2, 0.1*closeScale))
	cv.ring(p, s.w.Robot.ReachM*closeScale, 1, colReach())
	s.drawRobot(cv, closeScale)
	status := c.Name + " | gripper empty"
	if s.held != "" {
		status = c.Name + " | holding " + s.held
		cv.disc(p.Add(fwd.Scale(r)), 8, colObject())
	}
	cv.label(2, 1, status, colWhite(), colHeader())
	cv.label(c.Width-50, 15, "reach", colReach(), colTextBg())
	return cv
}
