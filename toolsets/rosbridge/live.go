package rosbridge

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
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
	g := &rosGraph{ctx: ctx, cl: cl, defs: map[string]*typeDef{}, loaded: map[string]detailsAnswer{}}
	if err := g.load(); err != nil {
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
	g   *rosGraph
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
		have, ok := lc.g.topics[u.topic]
		switch {
		case !ok && u.path == tfStaticPath:
			continue // no static broadcaster yet: nothing latched to read
		case !ok:
			lc.fail(at+".topic", "the running graph has no topic %s%s", u.topic, schema.Suggest(u.topic, slices.Sorted(maps.Keys(lc.g.topics))))
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
		if have, ok := lc.g.topics[cfg.CmdVel]; ok && !sameType(have, typeTwist) {
			lc.fail("rosbridge.cmd_vel", "%s is a %s on the running graph, not a %s", cfg.CmdVel, have, typeTwist)
		}
	}
}

// typePath is where a type mismatch is said: at the declared type, or at
// the topic when the type is the use's default.
func typePath(at string, u topicUse) string {
	if strings.HasPrefix(u.path, "observation.state.") || strings.HasPrefix(u.path, "readings.sources.") || strings.HasPrefix(u.path, "observation.cameras.") && u.typ == typeImage {
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
		if !slices.Contains(lc.g.actions, a.Name) && !slices.Contains(lc.g.actions, "/"+strings.TrimPrefix(a.Name, "/")) {
			lc.fail(at+".action.name", "the running graph has no action server %s%s", a.Name, schema.Suggest(a.Name, lc.g.actions))
			return
		}
		have := lc.g.typeOf("/rosapi/action_type", "action", a.Name)
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
		if !slices.Contains(lc.g.services, "/"+strings.TrimPrefix(s.Name, "/")) {
			lc.fail(at+".service.name", "the running graph has no service %s%s", s.Name, schema.Suggest(s.Name, lc.g.services))
			return
		}
		have := lc.g.typeOf("/rosapi/service_type", "service", s.Name)
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
		if have, ok := lc.g.topics[pd.Topic]; ok && !sameType(have, pd.Type) {
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

// rosGraph is what rosapi says of the running graph.
type rosGraph struct {
	ctx      context.Context
	cl       *wire.Client
	topics   map[string]string // name: type
	services []string
	actions  []string
	defs     map[string]*typeDef // by rosapi name, as loaded
	// loaded is each details call's answer, asked once per check.
	loaded map[string]detailsAnswer
}

type detailsAnswer struct {
	root string
	skip string // why rosapi gave nothing to check against
	err  error
}

func (g *rosGraph) call(service string, args any, out any) error {
	raw, err := g.cl.CallService(g.ctx, service, args)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s answered %s: %w", service, raw, err)
	}
	return nil
}

// load reads the topics, services and action servers.
func (g *rosGraph) load() error {
	if err := g.loadTopics(); err != nil {
		return err
	}
	if err := g.loadServices(); err != nil {
		return err
	}
	return g.loadActions()
}

func (g *rosGraph) loadTopics() error {
	var t struct{ Topics, Types []string }
	if err := g.call("/rosapi/topics", nil, &t); err != nil {
		return err
	}
	g.topics = map[string]string{}
	for i, n := range t.Topics {
		if i < len(t.Types) {
			g.topics[n] = t.Types[i]
		}
	}
	return nil
}

func (g *rosGraph) loadServices() error {
	var s struct{ Services []string }
	if err := g.call("/rosapi/services", nil, &s); err != nil {
		return err
	}
	g.services = s.Services
	return nil
}

func (g *rosGraph) loadActions() error {
	var a struct {
		ActionServers []string `json:"action_servers"`
	}
	if err := g.call("/rosapi/action_servers", nil, &a); err != nil {
		return err
	}
	g.actions = a.ActionServers
	return nil
}

// typeOf asks rosapi for the type of one action or service ("" when it
// cannot say).
func (g *rosGraph) typeOf(service, key, name string) string {
	var r struct{ Type string }
	if g.call(service, map[string]any{key: name}, &r) != nil {
		return ""
	}
	return r.Type
}

// details loads the definitions of typ and every message inside it; it
// returns the root's rosapi name, or why there is nothing to compare with
// (skip: rosapi has no such service or no definition), or why rosapi's
// answer cannot be used. Each (service, type) is asked once.
func (g *rosGraph) details(service, typ string) (root, skip string, err error) {
	key := service + "\x00" + typ
	if a, ok := g.loaded[key]; ok {
		return a.root, a.skip, a.err
	}
	root, skip, err = g.loadDetails(service, typ)
	g.loaded[key] = detailsAnswer{root, skip, err}
	return root, skip, err
}

func (g *rosGraph) loadDetails(service, typ string) (string, string, error) {
	raw, err := g.cl.CallService(g.ctx, service, map[string]any{"type": typ})
	if err != nil {
		return "", fmt.Sprintf("%s did not answer (%v)", strings.TrimPrefix(service, "/"), err), nil
	}
	defs, err := parseTypedefs(raw)
	if err != nil {
		return "", "", fmt.Errorf("%s of %s: %w", service, typ, err)
	}
	if len(defs) == 0 {
		return "", fmt.Sprintf("%s has no definition of %s", strings.TrimPrefix(service, "/"), typ), nil
	}
	for i := range defs {
		g.defs[defs[i].Type] = &defs[i]
	}
	return defs[0].Type, "", nil
}
