package schema

// The typed environments expr rules are compiled against. Compiling with
// expr.Env of these types makes a typo such as `clearance.frnt` a load error.

// CallEnv is what a hook's when, rule, rewrite and clamp expressions read.
type CallEnv struct {
	Tool        ToolInfo       `expr:"tool"`
	Args        map[string]any `expr:"args"`
	Clearance   ClearanceEnv   `expr:"clearance"`
	Limits      Limits         `expr:"limits"`
	Observation Observation    `expr:"observation"`
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

// ClearanceEnv is a clearance reading as rules see it: the four distances,
// whether any direction is admissible (above limits.min_clearance_m), and
// toward(direction) for the distance in a direction named by an argument.
type ClearanceEnv struct {
	Front         float64              `expr:"front"`
	Back          float64              `expr:"back"`
	Left          float64              `expr:"left"`
	Right         float64              `expr:"right"`
	AnyAdmissible bool                 `expr:"any_admissible"`
	Toward        func(string) float64 `expr:"toward"`
	Admissible    func(string) bool    `expr:"admissible"`
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
	Tool   ToolInfo       `expr:"tool"`
	Args   map[string]any `expr:"args"`
	Before Observation    `expr:"before"`
	After  Observation    `expr:"after"`
	Result ResultEnv      `expr:"result"`
	Limits Limits         `expr:"limits"`
}

// NewClearanceEnv builds the rule view of a reading against the profile limits.
func NewClearanceEnv(c Clearance, l Limits) ClearanceEnv {
	adm := func(d string) bool { return c.Toward(d) > l.MinClearanceM }
	return ClearanceEnv{
		Front: c.Front, Back: c.Back, Left: c.Left, Right: c.Right,
		AnyAdmissible: adm("front") || adm("back") || adm("left") || adm("right"),
		Toward:        c.Toward,
		Admissible:    adm,
	}
}
