package embodiments

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/thea-harness/thea/schema"
)

// Render writes the Embodiment Profile as the Resident context text the
// model reads: cameras, frames and limits, always in the same order and
// shape, so the profile sits in the same place every time (A13).
func Render(e schema.Embodiment) string {
	var b strings.Builder
	b.WriteString("Embodiment Profile")
	if e.Name != "" {
		b.WriteString(": " + e.Name)
	}
	if e.Summary != "" {
		b.WriteString("\n" + e.Summary)
	}
	b.WriteString("\nCameras:")
	if len(e.Cameras) == 0 {
		b.WriteString(" none")
	}
	for _, c := range e.Cameras {
		fmt.Fprintf(&b, "\n- %s (frame %s, %dx%d, fov %s°)", c.Name, c.Frame, c.Width, c.Height, num(c.FovDeg))
		if c.Role != "" {
			b.WriteString(": " + c.Role)
		}
	}
	b.WriteString("\nFrames:")
	if len(e.Frames) == 0 {
		b.WriteString(" none")
	}
	for _, f := range e.Frames {
		b.WriteString("\n- " + f.Name)
		if f.Parent != "" {
			b.WriteString(" (parent " + f.Parent + ")")
		}
		if f.Description != "" {
			b.WriteString(": " + f.Description)
		}
	}
	l := e.Limits
	b.WriteString("\nLimits:")
	for _, kv := range []struct {
		name, unit string
		v          float64
	}{
		{"max translation", "m", l.MaxTranslationM},
		{"max rotation", "°", l.MaxRotationDeg},
		{"min clearance", "m", l.MinClearanceM},
		{"safety margin", "m", l.SafetyMarginM},
		{"reach", "m", l.ReachM},
		{"max speed", "m/s", l.MaxSpeedMps},
		{"payload", "kg", l.PayloadKg},
	} {
		if kv.v != 0 {
			fmt.Fprintf(&b, "\n- %s: %s %s", kv.name, num(kv.v), kv.unit)
		}
	}
	return b.String()
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
