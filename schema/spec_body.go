package schema

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// Embodiment is the Embodiment Profile: the body's cameras, frames and limits.
type Embodiment struct {
	Name    string   `json:"name"`
	Summary string   `json:"summary,omitempty"`
	Cameras []Camera `json:"cameras"`
	Frames  []Frame  `json:"frames"`
	Limits  Limits   `json:"limits"`
	// Lock serialises physical calls on this body across processes.
	Lock BodyLock `json:"lock"`
	// ClearanceSectors are the sectors a clearance reading reports; none
	// declared means a mobile base's front, back, left and right.
	ClearanceSectors []Sector `json:"clearance_sectors,omitempty"`
}

// BodyLock is the cross-process lock of one body: two processes driving the
// same body never run physical calls at the same time.
type BodyLock struct {
	// Name keys the lock; empty means the embodiment's name.
	Name string `json:"name,omitempty"`
	// Dir holds the lock file; empty means the system's temporary directory.
	Dir string `json:"dir,omitempty"`
	// Mode is "wait" (a physical call waits for the other process, up to
	// Timeout), "refuse" (it fails at once, naming the holder) or "none".
	Mode string `json:"mode"`
	// Timeout bounds a wait; zero waits as long as the call may.
	Timeout Duration `json:"timeout"`
}

// Sector is one direction a clearance reading measures: its name (the key
// in the reading and in rules, `clearance.<name>`), where it points in words,
// and other names rules and tool arguments may use for it.
type Sector struct {
	Name      string   `json:"name"`
	Direction string   `json:"direction,omitempty"`
	Aliases   []string `json:"aliases,omitempty"`
}

// DefaultSectors are a mobile base's sectors, used when an embodiment
// declares none.
func DefaultSectors() []Sector {
	return []Sector{
		{Name: "front", Direction: "ahead of the base", Aliases: []string{"forward"}},
		{Name: "back", Direction: "behind the base", Aliases: []string{"backward"}},
		{Name: "left", Direction: "to the base's left"},
		{Name: "right", Direction: "to the base's right"},
	}
}

// Sectors returns the declared clearance sectors, or DefaultSectors.
func (e Embodiment) Sectors() []Sector {
	if len(e.ClearanceSectors) == 0 {
		return DefaultSectors()
	}
	return e.ClearanceSectors
}

// Camera is one camera of the body.
type Camera struct {
	Name   string  `json:"name"`
	Frame  string  `json:"frame"`
	Width  int     `json:"width"`
	Height int     `json:"height"`
	FovDeg float64 `json:"fov_deg"`
	Role   string  `json:"role,omitempty"`
}

// Frame is one coordinate frame of the body.
type Frame struct {
	Name        string `json:"name"`
	Parent      string `json:"parent,omitempty"`
	Description string `json:"description,omitempty"`
}

// Limits are the physical limits of the body; hook rules read them as `limits`.
type Limits struct {
	MaxTranslationM float64 `json:"max_translation_m" expr:"max_translation_m"`
	MaxRotationDeg  float64 `json:"max_rotation_deg" expr:"max_rotation_deg"`
	MinClearanceM   float64 `json:"min_clearance_m" expr:"min_clearance_m"`
	SafetyMarginM   float64 `json:"safety_margin_m" expr:"safety_margin_m"`
	ReachM          float64 `json:"reach_m" expr:"reach_m"`
	MaxSpeedMps     float64 `json:"max_speed_mps" expr:"max_speed_mps"`
	PayloadKg       float64 `json:"payload_kg" expr:"payload_kg"`
	// Extra holds the numeric limits a spec declares beyond these
	// (max_force_n, max_joint_speed_dps, ...); rules read them as
	// limits.<name>, type-checked against the declared names.
	Extra map[string]float64 `json:"-" expr:"extra"`
}

// UnmarshalJSON decodes the fixed limits into their fields and every other
// numeric limit into Extra.
func (l *Limits) UnmarshalJSON(b []byte) error {
	type fixed Limits
	var f fixed
	if err := json.Unmarshal(b, &f); err != nil {
		return fmt.Errorf("limits: %w", err)
	}
	var all map[string]float64
	if err := json.Unmarshal(b, &all); err != nil {
		return fmt.Errorf("limits: %w", err)
	}
	known := fixedLimitNames()
	for k, v := range all {
		if !slices.Contains(known, k) {
			if f.Extra == nil {
				f.Extra = map[string]float64{}
			}
			f.Extra[k] = v
		}
	}
	*l = Limits(f)
	return nil
}

// MarshalJSON writes the fixed and the declared limits side by side.
func (l Limits) MarshalJSON() ([]byte, error) {
	type fixed Limits
	b, err := json.Marshal(fixed(l))
	if err != nil || len(l.Extra) == 0 {
		return b, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k, v := range l.Extra {
		m[k] = v
	}
	return json.Marshal(m)
}

// fixedLimitNames are the names of Limits' own fields.
func fixedLimitNames() []string {
	return []string{"max_translation_m", "max_rotation_deg", "min_clearance_m", "safety_margin_m", "reach_m", "max_speed_mps", "payload_kg"}
}

// LimitNames lists every limit a rule may read: the fixed ones and those the
// spec declares.
func (l Limits) LimitNames() []string {
	return append(fixedLimitNames(), sortedKeys(l.Extra)...)
}

// With returns the limits with overrides applied (fixed or declared names);
// an unknown name is an error.
func (l Limits) With(over map[string]float64) (Limits, error) {
	if len(over) == 0 {
		return l, nil
	}
	out := l
	out.Extra = maps.Clone(l.Extra)
	fields := map[string]*float64{
		"max_translation_m": &out.MaxTranslationM, "max_rotation_deg": &out.MaxRotationDeg,
		"min_clearance_m": &out.MinClearanceM, "safety_margin_m": &out.SafetyMarginM,
		"reach_m": &out.ReachM, "max_speed_mps": &out.MaxSpeedMps, "payload_kg": &out.PayloadKg,
	}
	for _, k := range sortedKeys(over) {
		if f, ok := fields[k]; ok {
			*f = over[k]
			continue
		}
		if _, ok := out.Extra[k]; !ok {
			return l, fmt.Errorf("limits.%s is not a limit of the embodiment%s", k, suggest(k, l.LimitNames()))
		}
		out.Extra[k] = over[k]
	}
	return out, nil
}
