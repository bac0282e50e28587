package rosbridgetest

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"time"
)

// The laser: a TurtleBot3 LDS-01 (360 beams from angle 0, 0.12–3.5 m).
const (
	scanBeams    = 360
	scanRangeMin = 0.12
	scanRangeMax = 3.5
	// glareBeam always reads NaN, as a real lidar does on a shiny surface.
	glareBeam = 7
)

func stamp(t time.Time) map[string]any {
	return map[string]any{"sec": t.Unix(), "nanosec": t.Nanosecond()}
}

func duration(d time.Duration) map[string]any {
	return map[string]any{"sec": int64(d / time.Second), "nanosec": int64(d % time.Second)}
}

func header(t time.Time, frame string) map[string]any {
	return map[string]any{"stamp": stamp(t), "frame_id": frame}
}

func quaternion(yaw float64) map[string]any {
	return map[string]any{"x": 0.0, "y": 0.0, "z": math.Sin(yaw / 2), "w": math.Cos(yaw / 2)}
}

func pose(x, y, yaw float64) map[string]any {
	return map[string]any{"position": map[string]any{"x": x, "y": y, "z": 0.0}, "orientation": quaternion(yaw)}
}

func poseStamped(t time.Time, frame string, x, y, yaw float64) map[string]any {
	return map[string]any{"header": header(t, frame), "pose": pose(x, y, yaw)}
}

func vector3(x, y, z float64) map[string]any {
	return map[string]any{"x": x, "y": y, "z": z}
}

func zeros(n int) []float64 { return make([]float64, n) }

func odometry(t time.Time, w world) map[string]any {
	return map[string]any{
		"header":         header(t, "odom"),
		"child_frame_id": "base_footprint",
		"pose":           map[string]any{"pose": pose(w.x, w.y, w.yaw), "covariance": zeros(36)},
		"twist": map[string]any{
			"twist":      map[string]any{"linear": vector3(w.v, 0, 0), "angular": vector3(0, 0, w.w)},
			"covariance": zeros(36),
		},
	}
}

// nonFinite marks a float array element that is inf or NaN until the
// message is encoded: null, or a bare token with the BareNonFinite fault.
type nonFinite string

const (
	tokenInf = nonFinite("Infinity")
	tokenNaN = nonFinite("NaN")
)

// bareMarker is what a nonFinite element encodes as before replaceBare
// turns it into a bare token.
func bareMarker(t nonFinite) string { return "\x00bare:" + string(t) }

// scan casts the laser's beams at the room's walls. Beams that hit
// nothing within range_max read +inf; one beam reads NaN.
func scan(t time.Time, w world, n *noise, bare bool) map[string]any {
	ranges := make([]any, scanBeams)
	intensities := make([]any, scanBeams)
	inc := 2 * math.Pi / scanBeams
	for i := range ranges {
		d := n.add(wallDistance(w.x, w.y, w.yaw+float64(i)*inc))
		var r any = d
		switch {
		case i == glareBeam:
			r = tokenNaN
		case d > scanRangeMax:
			r = tokenInf
		}
		if tok, ok := r.(nonFinite); ok {
			if bare {
				r = bareMarker(tok)
			} else {
				r = nil // rosbridge writes ±inf and NaN as null
			}
		}
		ranges[i] = r
		intensities[i] = 100.0
	}
	return map[string]any{
		"header":          header(t, "base_scan"),
		"angle_min":       0.0,
		"angle_max":       2*math.Pi - inc,
		"angle_increment": inc,
		"time_increment":  0.0,
		"scan_time":       0.2,
		"range_min":       scanRangeMin,
		"range_max":       scanRangeMax,
		"ranges":          ranges,
		"intensities":     intensities,
	}
}

// replaceBare turns the markers of nonFinite elements into bare tokens.
func replaceBare(b []byte) []byte {
	for _, tok := range []nonFinite{tokenInf, tokenNaN} {
		quoted, _ := json.Marshal(bareMarker(tok))
		b = bytes.ReplaceAll(b, quoted, []byte(tok))
	}
	return b
}

// wallDistance is the distance from (x, y) along angle a to the room's
// walls.
func wallDistance(x, y, a float64) float64 {
	dx, dy := math.Cos(a), math.Sin(a)
	best := math.Inf(1)
	if dx > 1e-12 {
		best = math.Min(best, (roomMaxX-x)/dx)
	} else if dx < -1e-12 {
		best = math.Min(best, (roomMinX-x)/dx)
	}
	if dy > 1e-12 {
		best = math.Min(best, (roomMaxY-y)/dy)
	} else if dy < -1e-12 {
		best = math.Min(best, (roomMinY-y)/dy)
	}
	return best
}

// compressedImage is a small JPEG whose colour follows the robot's
// heading, so consecutive frames differ as the robot turns.
func compressedImage(t time.Time, w world) map[string]any {
	img := image.NewRGBA(image.Rect(0, 0, 32, 24))
	hue := uint8(128 + 127*math.Sin(w.yaw))
	for y := 0; y < 24; y++ {
		for x := 0; x < 32; x++ {
			img.Set(x, y, color.RGBA{R: hue, G: uint8(x * 8), B: uint8(y * 10), A: 255})
		}
	}
	var buf bytes.Buffer
	_ = jpeg.Encode(&buf, img, &jpeg.Options{Quality: 60}) // writing to memory cannot fail
	return map[string]any{
		"header": header(t, "camera_rgb_optical_frame"),
		"format": "jpeg",
		"data":   buf.Bytes(), // encoding/json writes []byte as base64, as rosbridge does for uint8[]
	}
}

// hugeImage is a CompressedImage of a PNG whose header (signature and
// IHDR) claims 60000×60000 pixels and which holds nothing else.
func hugeImage(t time.Time) map[string]any {
	ihdr := make([]byte, 0, 17)
	ihdr = append(ihdr, "IHDR"...)
	ihdr = binary.BigEndian.AppendUint32(ihdr, 60000)
	ihdr = binary.BigEndian.AppendUint32(ihdr, 60000)
	ihdr = append(ihdr, 8, 2, 0, 0, 0) // 8-bit RGB
	data := []byte("\x89PNG\r\n\x1a\n")
	data = binary.BigEndian.AppendUint32(data, 13)
	data = append(data, ihdr...)
	data = binary.BigEndian.AppendUint32(data, crc32.ChecksumIEEE(ihdr))
	return map[string]any{"header": header(t, "camera_rgb_optical_frame"), "format": "png", "data": data}
}

func batteryState(t time.Time, w world) map[string]any {
	status := 2 // discharging
	if w.docked {
		status = 1 // charging
	}
	return map[string]any{
		"header":                  header(t, "base_link"),
		"voltage":                 11.1 + w.battery,
		"temperature":             nil, // unmeasured: NaN, sent as null
		"current":                 -0.8,
		"charge":                  nil,
		"capacity":                nil,
		"design_capacity":         1.8,
		"percentage":              w.battery,
		"power_supply_status":     status,
		"power_supply_health":     1,
		"power_supply_technology": 3,
		"present":                 true,
		"cell_voltage":            []float64{},
		"cell_temperature":        []float64{},
		"location":                "base",
		"serial_number":           "",
	}
}
