package rosbridge

import (
	"errors"
	"maps"
	"slices"
	"sort"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// Kind is the toolset kind "rosbridge": a transport, which the engine
// starts under the host's body layer.
func Kind() engine.ToolsetKind {
	return engine.ToolsetKind{
		Name:     "rosbridge",
		Doc:      "a ROS 2 robot behind rosbridge_server (url ws://…): actions, services and bounded publishes as tools, observation and clearance from topics",
		Config:   Section{},
		CUE:      kindCUE(),
		Validate: schema.Typed(validate),
		Provides: provides,
		Physical: physicalTools,
		// thea validate --live: the graph through rosapi.
		LiveCheck: liveCheck,
		Transport: open,
	}
}

// open makes one rosbridge toolset's back-end from its compiled section.
func open(tc engine.ToolsetConfig, env engine.BackendEnv) (engine.Backend, error) {
	p, err := load(tc.Section)
	if err != nil {
		return nil, err
	}
	return newBackend(tc, p, env), nil
}

// load compiles a toolset's rosbridge block, decoded once at load.
func load(ts schema.Toolset) (*plan, error) {
	s, err := sectionOf(ts)
	if err != nil {
		return nil, err
	}
	p, err := compile(s.Rosbridge)
	if p != nil {
		p.url = s.URL
	}
	return p, err
}

// provides lists the declared tools and the observation, clearance and
// readings tools, without connecting. It reads the names alone, so a section with
// other problems still provides its tools (its problems are reported once,
// at their own fields).
func provides(_ string, ts schema.Toolset) ([]string, bool) {
	s, err := sectionOf(ts)
	if err != nil {
		return nil, true // not a rosbridge section: nothing is known without the back-end
	}
	cfg := s.Rosbridge
	names := slices.Sorted(maps.Keys(cfg.Tools))
	if o := cfg.Observation; o != nil {
		names = append(names, o.Tool)
	}
	if c := cfg.Clearance; c != nil {
		names = append(names, c.Tool)
	}
	if r := cfg.Readings; r != nil {
		names = append(names, r.Tool)
	}
	sort.Strings(names)
	return names, false
}

// physicalTools lists the declared tools the back-end runs as motions
// (ToolDecl.IsPhysical, as its profile does), without connecting.
func physicalTools(ts schema.Toolset) []string {
	sec, err := sectionOf(ts)
	if err != nil {
		// A section that does not decode is refused at validate and at
		// start: none of its tools can run, so none is a motion here.
		return nil
	}
	var out []string
	for _, name := range slices.Sorted(maps.Keys(sec.Rosbridge.Tools)) {
		if sec.Rosbridge.Tools[name].IsPhysical() {
			out = append(out, name)
		}
	}
	return out
}

// validate checks a rosbridge toolset at the user's positions beyond its
// CUE (which checks the url and the rosbridge block's fields): every expr,
// and the sectors and cameras against the embodiment.
func validate(c *schema.Check, _ schema.Toolset, sec Section) {
	p, err := compile(sec.Rosbridge)
	for _, e := range flatten(err) {
		var fe FieldError
		if errors.As(e, &fe) {
			c.Errorf(".rosbridge."+fe.Path, "%s", fe.Msg)
		} else {
			c.Errorf(".rosbridge", "%v", e)
		}
	}
	if p == nil {
		return
	}
	warnNoStop(c, p)
	if c.Spec == nil {
		return
	}
	checkBody(c, p, c.Spec.Embodiment)
}

// checkBody checks the sectors and cameras against the embodiment.
func checkBody(c *schema.Check, p *plan, emb schema.Embodiment) {
	if cl := p.cfg.Clearance; cl != nil {
		declared := map[string]bool{}
		for _, s := range emb.Sectors() {
			declared[s.Name] = true
			if _, ok := p.sectorAngles(s.Name); !ok {
				c.Errorf(".rosbridge.clearance", "the embodiment's sector %q has no angles: declare clearance.sectors.%s: {from_deg: …, to_deg: …}", s.Name, s.Name)
			}
		}
		for name := range cl.Sectors {
			if !declared[name] {
				c.Errorf(".rosbridge.clearance.sectors."+name, "the embodiment declares no clearance sector %q", name)
			}
		}
	}
	if o := p.cfg.Observation; o != nil {
		cams := map[string]bool{}
		for _, cam := range emb.Cameras {
			cams[cam.Name] = true
		}
		for name := range o.Cameras {
			if !cams[name] {
				c.Errorf(".rosbridge.observation.cameras."+name, "the embodiment declares no camera %q", name)
			}
		}
		for name, d := range o.Detections {
			if d.Camera != "" && !cams[d.Camera] {
				c.Errorf(".rosbridge.observation.detections."+name+".camera", "the embodiment declares no camera %q", d.Camera)
			}
		}
	}
}

// flatten lists the errors joined in err.
func flatten(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []error
		for _, e := range j.Unwrap() {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return []error{err}
}
