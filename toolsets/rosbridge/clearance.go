package rosbridge

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// defaultSectors are the angles of a mobile base's default sectors,
// degrees counter-clockwise from the front (REP 103: x forward, y left).
func defaultSectors() map[string]SectorDecl {
	return map[string]SectorDecl{
		"front": {FromDeg: -45, ToDeg: 45},
		"left":  {FromDeg: 45, ToDeg: 135},
		"back":  {FromDeg: 135, ToDeg: 225},
		"right": {FromDeg: -135, ToDeg: -45},
	}
}

// sectorAngles is a sector's declared angles, else its default.
func (p *plan) sectorAngles(name string) (SectorDecl, bool) {
	if c := p.cfg.Clearance; c != nil {
		if s, ok := c.Sectors[name]; ok {
			return s, true
		}
	}
	s, ok := defaultSectors()[name]
	return s, ok
}

type laserScan struct {
	AngleMin       float64         `json:"angle_min"`
	AngleIncrement float64         `json:"angle_increment"`
	RangeMin       float64         `json:"range_min"`
	RangeMax       float64         `json:"range_max"`
	Ranges         json.RawMessage `json:"ranges"`
}

// clearance reads each embodiment sector's nearest return from a
// LaserScan. null, inf and NaN (rosbridge sends null) are no return;
// ranges outside [range_min, range_max] are ignored. A sector with beams
// but no return is clear up to range_max; a sector no beam covers makes
// the reading fail.
func (p *plan) clearance(raw json.RawMessage, emb schema.Embodiment) (map[string]any, error) {
	var s laserScan
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("not a LaserScan: %w", err)
	}
	ranges, err := wire.Floats(s.Ranges)
	if err != nil {
		return nil, err
	}
	if s.AngleIncrement == 0 || math.IsNaN(s.AngleIncrement) || s.RangeMax <= 0 {
		return nil, fmt.Errorf("angle_increment %v or range_max %v unusable", s.AngleIncrement, s.RangeMax)
	}
	out := map[string]any{}
	for _, sec := range emb.Sectors() {
		a, ok := p.sectorAngles(sec.Name)
		if !ok {
			return nil, fmt.Errorf("sector %s has no angles (declare clearance.sectors.%s)", sec.Name, sec.Name)
		}
		lo := a.FromDeg * math.Pi / 180
		width := math.Mod((a.ToDeg-a.FromDeg)*math.Pi/180+4*math.Pi, 2*math.Pi)
		if width == 0 {
			width = 2 * math.Pi
		}
		covered, best := false, math.Inf(1)
		for i, r := range ranges {
			ang := s.AngleMin + float64(i)*s.AngleIncrement
			// A beam on a sector's edge belongs to it (to both sectors
			// sharing the edge): eps absorbs the rounding of the angles.
			const eps = 1e-9
			off := math.Mod(ang-lo+8*math.Pi, 2*math.Pi)
			if off > 2*math.Pi-eps {
				off = 0
			}
			if off > width+eps {
				continue
			}
			covered = true
			if math.IsNaN(r) || math.IsInf(r, 0) || r < s.RangeMin || r > s.RangeMax {
				continue
			}
			best = math.Min(best, r)
		}
		if !covered {
			return nil, fmt.Errorf("no beam of the scan falls in sector %s (%v° to %v°)", sec.Name, a.FromDeg, a.ToDeg)
		}
		if math.IsInf(best, 1) {
			best = s.RangeMax
		}
		out[sec.Name] = round3(best)
	}
	return out, nil
}
