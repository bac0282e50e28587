package sim

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// canvas draws map-frame geometry into an image through a projection from
// metres to pixels. Everything is drawn with exact per-pixel tests, no
// anti-aliasing, so output is byte-for-byte deterministic.
type canvas struct {
	img  *image.RGBA
	proj func(Vec) Vec // map frame → pixel coordinates
}

func newCanvas(w, h int, bg color.RGBA, proj func(Vec) Vec) *canvas {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	return &canvas{img: img, proj: proj}
}

// bbox is the pixel box covering points (in pixel space), clipped to the image.
func (c *canvas) bbox(pts []Vec, pad float64) image.Rectangle {
	lo, hi := Vec{math.Inf(1), math.Inf(1)}, Vec{math.Inf(-1), math.Inf(-1)}
	for _, p := range pts {
		lo.X, lo.Y = math.Min(lo.X, p.X), math.Min(lo.Y, p.Y)
		hi.X, hi.Y = math.Max(hi.X, p.X), math.Max(hi.Y, p.Y)
	}
	r := image.Rect(int(math.Floor(lo.X-pad)), int(math.Floor(lo.Y-pad)), int(math.Ceil(hi.X+pad))+1, int(math.Ceil(hi.Y+pad))+1)
	return r.Intersect(c.img.Bounds())
}

// fillPoly fills a polygon given in map coordinates.
func (c *canvas) fillPoly(pg Polygon, col color.RGBA) {
	px := make(Polygon, len(pg))
	for i, p := range pg {
		px[i] = c.proj(p)
	}
	c.fillPixelPoly(px, col)
}

func (c *canvas) fillPixelPoly(px Polygon, col color.RGBA) {
	if axisAligned(px) {
		// Same pixels as the general test (centres inside), far cheaper.
		b := px.Bounds()
		r := image.Rect(int(math.Ceil(b.Min.X-0.5)), int(math.Ceil(b.Min.Y-0.5)), int(math.Ceil(b.Max.X-0.5)), int(math.Ceil(b.Max.Y-0.5)))
		draw.Draw(c.img, r.Intersect(c.img.Bounds()), image.NewUniform(col), image.Point{}, draw.Src)
		return
	}
	b := c.bbox(px, 0)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if px.Contains(Vec{float64(x) + 0.5, float64(y) + 0.5}) {
				c.img.SetRGBA(x, y, col)
			}
		}
	}
}

// outlinePoly strokes a polygon's edges.
func (c *canvas) outlinePoly(pg Polygon, width float64, col color.RGBA) {
	for i := range pg {
		c.line(pg[i], pg[(i+1)%len(pg)], width, col)
	}
}

// line strokes a map-frame segment width pixels wide.
func (c *canvas) line(a, b Vec, width float64, col color.RGBA) {
	c.pixelLine(c.proj(a), c.proj(b), width, col)
}

func (c *canvas) pixelLine(pa, pb Vec, width float64, col color.RGBA) {
	half := math.Max(width, 1) / 2
	r := c.bbox([]Vec{pa, pb}, half+1)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if pointSegDist(Vec{float64(x) + 0.5, float64(y) + 0.5}, pa, pb) <= half {
				c.img.SetRGBA(x, y, col)
			}
		}
	}
}

// disc fills a circle of radius px pixels around a map point.
func (c *canvas) disc(p Vec, radius float64, col color.RGBA) {
	q := c.proj(p)
	r := c.bbox([]Vec{q}, radius+1)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if (Vec{float64(x) + 0.5, float64(y) + 0.5}).Dist(q) <= radius {
				c.img.SetRGBA(x, y, col)
			}
		}
	}
}

// ring strokes a circle of radius px pixels around a map point.
func (c *canvas) ring(p Vec, radius, width float64, col color.RGBA) {
	q := c.proj(p)
	r := c.bbox([]Vec{q}, radius+width+1)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if math.Abs((Vec{float64(x) + 0.5, float64(y) + 0.5}).Dist(q)-radius) <= width/2 {
				c.img.SetRGBA(x, y, col)
			}
		}
	}
}

// label writes text with its top-left corner at pixel (x, y) on a pale box so
// it stays readable over any fill.
func (c *canvas) label(x, y int, text string, fg, bg color.RGBA) {
	w := font.MeasureString(basicfont.Face7x13, text).Ceil()
	box := image.Rect(x-1, y, x+w+1, y+13)
	draw.Draw(c.img, box, image.NewUniform(bg), image.Point{}, draw.Src)
	d := font.Drawer{Dst: c.img, Src: image.NewUniform(fg), Face: basicfont.Face7x13, Dot: fixed.P(x, y+11)}
	d.DrawString(text)
}

// labelAt centres text horizontally on a map point, just below it.
func (c *canvas) labelAt(p Vec, dy int, text string, fg, bg color.RGBA) {
	q := c.proj(p)
	w := font.MeasureString(basicfont.Face7x13, text).Ceil()
	c.label(int(math.Round(q.X))-w/2, int(math.Round(q.Y))+dy, text, fg, bg)
}

// axisAligned reports whether a polygon is a rectangle with axis-parallel
// sides (rooms and footprints in the north-up map).
func axisAligned(pg Polygon) bool {
	if len(pg) != 4 {
		return false
	}
	for i := range pg {
		a, b := pg[i], pg[(i+1)%4]
		if a.X != b.X && a.Y != b.Y {
			return false
		}
	}
	return true
}
