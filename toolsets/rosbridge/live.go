package rosbridge

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge/graph"
	"github.com/thea-harness/thea/toolsets/rosbridge/perception"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// liveCheck is thea validate --live for a rosbridge toolset: every topic,
// action and service the section names is looked up in the running graph
// through rosapi, with its type, and every field an expr reads or builds
// is looked up in its message's definition. Each problem is at the field
// of the section that names it.
func liveCheck(ctx context.Context, tc engine.ToolsetConfig) []engine.LiveProblem {
	p, err := load(tc.Section)
	if err != nil {
		return nil // the section's own problems are validate's, at their fields
	}
	o := wire.Options{URL: p.url}
	if env := p.cfg.TokenEnv; env != "" {
		o.Header = http.Header{"Authorization": {"Bearer " + os.Getenv(env)}}
	}
	cl, err := wire.Dial(ctx, o)
	if err != nil {
		return []engine.LiveProblem{{Path: "url", Message: fmt.Sprintf("rosbridge could not be reached for the rosapi checks: %v", err)}}
	}
	defer cl.Close()
	g := graph.NewRosapi(ctx, cl)
	if err := g.Load(); err != nil {
		return []engine.LiveProblem{{Path: "url", Message: fmt.Sprintf("rosapi did not answer (is the rosapi node running?): %v", err)}}
	}
	lc := &liveChecker{g: g}
	lc.topics(p.cfg)
	for _, name := range slices.Sorted(maps.Keys(p.cfg.Tools)) {
		lc.tool("rosbridge.tools."+name, p.cfg.Tools[name])
	}
	lc.stop(p.stop)
	return lc.out
}

type liveChecker struct {
	g   *graph.Rosapi
	out []engine.LiveProblem
}

func (lc *liveChecker) fail(path, format string, args ...any) {
	lc.out = append(lc.out, engine.LiveProblem{Path: path, Message: fmt.Sprintf(format, args...)})
}

// warn says, at path, what could not be checked and why: a positioned
// warning, so a check skipped is never silent.
func (lc *liveChecker) warn(path, format string, args ...any) {
	lc.out = append(lc.out, engine.LiveProblem{Path: path, Message: fmt.Sprintf(format, args...), Warning: true})
}

// topics checks what the observation, clearance and readings read, and
// cmd_vel.
func (lc *liveChecker) topics(cfg Config) {
	for _, u := range cfg.topicUses() {
		at := "rosbridge." + u.path
		have, ok := lc.g.Topics()[u.topic]
		switch {
		case !ok && u.path == tfStaticPath:
			continue // no static broadcaster yet: nothing latched to read
		case !ok:
			lc.fail(at+".topic", "the running graph has no topic %s%s", u.topic, schema.Suggest(u.topic, slices.Sorted(maps.Keys(lc.g.Topics()))))
			continue
		case u.typ != "" && !sameType(have, u.typ):
			lc.fail(typePath(at, u), "%s is a %s on the running graph, not the %s read here", u.topic, have, u.typ)
			continue
		}
		if strings.HasPrefix(u.path, "observation.state.") {
			k := strings.TrimPrefix(u.path, "observation.state.")
			lc.reads(at+".value", cfg.Observation.State[k].Value, have)
		}
		if src := cfg.valueAt(u.path); src != "" {
			lc.reads(at+".value", src, have)
		}
		if k, ok := strings.CutPrefix(u.path, "readings.sources."); ok {
			if src, ok := readingValue(cfg.Readings.Sources[k]); ok {
				lc.reads(at+".value", src, have)
			}
		}
	}
	if cfg.CmdVel != "" {
		if have, ok := lc.g.Topics()[cfg.CmdVel]; ok && !sameType(have, typeTwist) {
			lc.fail("rosbridge.cmd_vel", "%s is a %s on the running graph, not a %s", cfg.CmdVel, have, typeTwist)
		}
	}
}

// typePath is where a type mismatch is said: at the declared type, or at
// the topic when the type is the use's default.
func typePath(at string, u topicUse) string {
	if strings.HasPrefix(u.path, "observation.state.") || strings.HasPrefix(u.path, "readings.sources.") || strings.HasPrefix(u.path, "observation.cameras.") && u.typ == perception.TypeImage {
		return at + ".type"
	}
	if u.path == tfStaticPath {
		return at
	}
	return at + ".topic"
}

// tool checks one declared tool's action, service or topic.
func (lc *liveChecker) tool(at string, d ToolDecl) {
	switch {
	case d.Action != nil:
		a := d.Action
		if !slices.Contains(lc.g.Actions(), a.Name) && !slices.Contains(lc.g.Actions(), "/"+strings.TrimPrefix(a.Name, "/")) {
			lc.fail(at+".action.name", "the running graph has no action server %s%s", a.Name, schema.Suggest(a.Name, lc.g.Actions()))
			return
		}
		have := lc.g.TypeOf("/rosapi/action_type", "action", a.Name)
		if have == "" {
			lc.warn(at+".action.type", "not checked: rosapi/action_type did not say the type of %s", a.Name)
		} else if !sameType(have, a.Type) {
			lc.fail(at+".action.type", "%s is a %s on the running graph, not a %s", a.Name, have, a.Type)
			return
		}
		lc.builds(at+".action.goal", a.Goal, "/rosapi/action_goal_details", a.Type)
		if a.Success != "" {
			lc.readsRoot(at+".action.success", a.Success, "result", "/rosapi/action_result_details", a.Type)
		}
		if a.Reason != "" {
			lc.readsRoot(at+".action.reason", a.Reason, "result", "/rosapi/action_result_details", a.Type)
		}
	case d.Service != nil:
		s := d.Service
		if !slices.Contains(lc.g.Services(), "/"+strings.TrimPrefix(s.Name, "/")) {
			lc.fail(at+".service.name", "the running graph has no service %s%s", s.Name, schema.Suggest(s.Name, lc.g.Services()))
			return
		}
		have := lc.g.TypeOf("/rosapi/service_type", "service", s.Name)
		if have == "" {
			lc.warn(at+".service.type", "not checked: rosapi/service_type did not say the type of %s", s.Name)
		} else if !sameType(have, s.Type) {
			lc.fail(at+".service.type", "%s is a %s on the running graph, not a %s", s.Name, have, s.Type)
			return
		}
		lc.builds(at+".service.request", s.Request, "/rosapi/service_request_details", s.Type)
		if s.Success != "" {
			lc.readsDetails(at+".service.success", s.Success, "/rosapi/service_response_details", s.Type)
		}
		if s.Reason != "" {
			lc.readsDetails(at+".service.reason", s.Reason, "/rosapi/service_response_details", s.Type)
		}
	case d.Publish != nil:
		pd := d.Publish
		if have, ok := lc.g.Topics()[pd.Topic]; ok && !sameType(have, pd.Type) {
			lc.fail(at+".publish.type", "%s is a %s on the running graph, not a %s", pd.Topic, have, pd.Type)
			return
		}
		lc.builds(at+".publish.message", pd.Message, "/rosapi/message_details", pd.Type)
	}
}

// sameType compares ROS type names across their spellings
// ("pkg/msg/Name", "pkg/Name").
func sameType(a, b string) bool { return rosapiName(a) == rosapiName(b) }

// rosapiName is how rosapi names a type in a TypeDef: "pkg/Name".
func rosapiName(typ string) string {
	if parts := strings.Split(typ, "/"); len(parts) == 3 {
		return parts[0] + "/" + parts[2]
	}
	return typ
}
