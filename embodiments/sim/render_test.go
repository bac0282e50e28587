package sim

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"
)

func decodePNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// countColor counts pixels of exactly colour c inside r.
func countColor(img image.Image, r image.Rectangle, c color.RGBA) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if color.RGBAModel.Convert(img.At(x, y)) == c {
				n++
			}
		}
	}
	return n
}

// TestRenderMap: the head map is centred on the robot (blue at the centre),
// draws the mug where it is (red, 1.10 m east = 44 px right) and the table
// between them (wood).
func TestRenderMap(t *testing.T) {
	s := newSimulator(household(t), 1)
	s.navigateTo("table")
	head := s.w.Robot.Cameras[0]
	b, err := s.renderPNG(head)
	if err != nil {
		t.Fatal(err)
	}
	img := decodePNG(t, b)
	cx, cy := head.Width/2, head.Height/2
	if n := countColor(img, image.Rect(cx-6, cy-6, cx+6, cy+6), colRobot()); n < 20 {
		t.Errorf("robot at the centre: %d blue pixels", n)
	}
	mx := cx + int(1.10*mapScale)
	if n := countColor(img, image.Rect(mx-3, cy-3, mx+4, cy+4), colObject()); n < 20 {
		t.Errorf("mug 44 px east of the robot: %d red pixels", n)
	}
	if n := countColor(img, image.Rect(cx+36, cy-10, cx+40, cy+10), colFurniture()); n == 0 {
		t.Error("table edge 0.85 m east: no furniture pixels")
	}
	// Turned away, the mug leaves the camera's view and the image.
	s.rotate(180)
	b, _ = s.renderPNG(head)
	if n := countColor(decodePNG(t, b), image.Rect(mx-3, cy-3, mx+4, cy+4), colObject()); n != 0 {
		t.Errorf("mug behind the robot still drawn: %d red pixels", n)
	}
}

// TestRenderCloseup: the wrist view shows the held object at the gripper.
func TestRenderCloseup(t *testing.T) {
	s := newSimulator(household(t), 1)
	wrist := s.w.Robot.Cameras[1]
	gripper := image.Rect(wrist.Width/2-4, wrist.Height-10, wrist.Width/2+4, wrist.Height-2)
	b, _ := s.renderPNG(wrist)
	if n := countColor(decodePNG(t, b), gripper, colObject()); n != 0 {
		t.Fatalf("empty gripper drawn holding something: %d red pixels", n)
	}
	s.navigateTo("table")
	s.moveBase("forward", 0.5)
	if r := s.pickUp("mug"); r["success"] != true {
		t.Fatal(r["reason"])
	}
	b, _ = s.renderPNG(wrist)
	if n := countColor(decodePNG(t, b), gripper, colObject()); n < 20 {
		t.Errorf("held mug at the gripper: %d red pixels", n)
	}
}
