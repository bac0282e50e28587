package schema

import (
	"github.com/thea-harness/thea/rules"
	"github.com/thea-harness/thea/world"
)

// The typed environments expr rules are compiled against. Compiling with
// expr.Env of these types makes a typo such as `clearance.frnt` a load error.

// CallEnv is what a hook's when, rule, rewrite and clamp expressions read.
type CallEnv struct {
	Tool      ToolInfo       `expr:"tool"`
	Args      map[string]any `expr:"args"`
	Clearance ClearanceEnv   `expr:"clearance"`
	// Readings are the named safety readings, taken fresh before the call.
	Readings    rules.ReadingsEnv `expr:"readings"`
	Limits      Limits            `expr:"limits"`
	Observation world.Observation `expr:"observation"`
	// Result is the call's outcome; only post-hooks see it filled.
	Result ResultEnv `expr:"result"`
	Turn   int       `expr:"turn"`
}

// ToolInfo describes the called tool to a rule.
type ToolInfo struct {
	Name     string   `expr:"name"`
	Toolset  string   `expr:"toolset"`
	Tags     []string `expr:"tags"`
	Physical bool     `expr:"physical"`
}

// ClearanceEnv is a clearance reading as rules see it: the distance per
// declared sector (written clearance.<sector>, which the rule compiler reads
// as sectors["<sector>"]), whether any sector is admissible (above
// limits.min_clearance_m), and toward(x) for the distance toward a sector
// named by an argument (a sector's name or alias; anything else reads 0).
// They take any value: an argument the call left out (nil) or gave as a
// number reads 0, the safe side, not a run-time type error.
type ClearanceEnv struct {
	Sectors       map[string]float64 `expr:"sectors"`
	AnyAdmissible bool               `expr:"any_admissible"`
	Toward        func(any) float64  `expr:"toward"`
	Admissible    func(any) bool     `expr:"admissible"`
}

// ResultEnv is a finished call's envelope as post-hook rules see it.
type ResultEnv struct {
	Success bool           `expr:"success"`
	Reason  string         `expr:"reason"`
	Value   map[string]any `expr:"value"`
}

// CheckEnv is what a tool contract's deterministic check reads: the call's
// arguments and the observations before the call and after it (the evidence
// for its run).
type CheckEnv struct {
	Tool   ToolInfo          `expr:"tool"`
	Args   map[string]any    `expr:"args"`
	Before world.Observation `expr:"before"`
	After  world.Observation `expr:"after"`
	Result ResultEnv         `expr:"result"`
	Limits Limits            `expr:"limits"`
}

// NewClearanceEnv builds the rule view of a reading over the embodiment's
// sectors and limits.
func NewClearanceEnv(c world.Clearance, sectors []Sector, l Limits) ClearanceEnv {
	names := SectorNames(sectors)
	toward := func(d any) float64 {
		s, _ := d.(string)
		if n, ok := names[s]; ok {
			return c[n]
		}
		return 0
	}
	adm := func(d any) bool { return toward(d) > l.MinClearanceM }
	any := false
	for _, s := range sectors {
		any = any || adm(s.Name)
	}
	return ClearanceEnv{Sectors: map[string]float64(c), AnyAdmissible: any, Toward: toward, Admissible: adm}
}

// SectorNames maps every name and alias of the sectors to the sector's name.
func SectorNames(sectors []Sector) map[string]string {
	m := make(map[string]string, len(sectors)*2)
	for _, s := range sectors {
		m[s.Name] = s.Name
		for _, a := range s.Aliases {
			m[a] = s.Name
		}
	}
	return m
}
