package embodiments

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/thea-harness/thea/schema"
)

// Render writes the Embodiment Profile as the Resident context text the
// model reads: cameras, frames and limits, always in the same order and
// shape, so the profile sits in the same place every time and the model
// finds its limits where it found them last.
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
	// Declared limits carry their unit in their name (max_force_n).
	for _, k := range slices.Sorted(maps.Keys(l.Extra)) {
		fmt.Fprintf(&b, "\n- %s: %s", k, num(l.Extra[k]))
	}
	// Only declared sectors: a base's default four need no explanation.
	if len(e.ClearanceSectors) > 0 {
		b.WriteString("\nClearance sectors:")
		for _, sec := range e.ClearanceSectors {
			b.WriteString("\n- " + sec.Name)
			if len(sec.Aliases) > 0 {
				b.WriteString(" (also " + strings.Join(sec.Aliases, ", ") + ")")
			}
			if sec.Direction != "" {
				b.WriteString(": " + sec.Direction)
			}
		}
	}
	return b.String()
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
