package graph

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// Rosapi is what rosapi says of the running graph, read through one
// client: the toolset's live check and ReadGraph ask it the same way.
type Rosapi struct {
	ctx      context.Context
	cl       *wire.Client
	topics   map[string]string // name: type
	services []string
	actions  []string
	defs     map[string]*TypeDef // by rosapi name, as loaded
	// loaded is each details call's answer, asked once per check.
	loaded map[string]detailsAnswer
}

// NewRosapi asks rosapi through cl; ctx bounds every call.
func NewRosapi(ctx context.Context, cl *wire.Client) *Rosapi {
	return &Rosapi{ctx: ctx, cl: cl, defs: map[string]*TypeDef{}, loaded: map[string]detailsAnswer{}}
}

type detailsAnswer struct {
	root string
	skip string // why rosapi gave nothing to check against
	err  error
}

// Topics is every topic by name, with its type, as loaded.
func (g *Rosapi) Topics() map[string]string { return g.topics }

// Services is every service's name, as loaded.
func (g *Rosapi) Services() []string { return g.services }

// Actions is every action server's name, as loaded.
func (g *Rosapi) Actions() []string { return g.actions }

// Def is the checked definition of typ (its rosapi name), once Details
// loaded it.
func (g *Rosapi) Def(typ string) (*TypeDef, bool) {
	d, ok := g.defs[typ]
	return d, ok
}

func (g *Rosapi) call(service string, args any, out any) error {
	raw, err := g.cl.CallService(g.ctx, service, args)
	if err != nil {
		return err // wire's error names the service
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s answered %s: %w", service, raw, err)
	}
	return nil
}

// Load reads the topics, services and action servers.
func (g *Rosapi) Load() error {
	if err := g.loadTopics(); err != nil {
		return err
	}
	if err := g.loadServices(); err != nil {
		return err
	}
	return g.loadActions()
}

func (g *Rosapi) loadTopics() error {
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

func (g *Rosapi) loadServices() error {
	var s struct{ Services []string }
	if err := g.call("/rosapi/services", nil, &s); err != nil {
		return err
	}
	g.services = s.Services
	return nil
}

func (g *Rosapi) loadActions() error {
	var a struct {
		ActionServers []string `json:"action_servers"`
	}
	if err := g.call("/rosapi/action_servers", nil, &a); err != nil {
		return err
	}
	g.actions = a.ActionServers
	return nil
}

// TypeOf asks rosapi for the type of one action or service ("" when it
// cannot say).
func (g *Rosapi) TypeOf(service, key, name string) string {
	var r struct{ Type string }
	if g.call(service, map[string]any{key: name}, &r) != nil {
		return ""
	}
	return r.Type
}

// Details loads the definitions of typ and every message inside it; it
// returns the root's rosapi name, or why there is nothing to compare with
// (skip: rosapi has no such service or no definition), or why rosapi's
// answer cannot be used. Each (service, type) is asked once.
func (g *Rosapi) Details(service, typ string) (root, skip string, err error) {
	key := service + "\x00" + typ
	if a, ok := g.loaded[key]; ok {
		return a.root, a.skip, a.err
	}
	root, skip, err = g.loadDetails(service, typ)
	g.loaded[key] = detailsAnswer{root, skip, err}
	return root, skip, err
}

func (g *Rosapi) loadDetails(service, typ string) (string, string, error) {
	raw, err := g.cl.CallService(g.ctx, service, map[string]any{"type": typ})
	if err != nil {
		return "", fmt.Sprintf("%s did not answer (%v)", strings.TrimPrefix(service, "/"), err), nil
	}
	defs, err := ParseTypedefs(raw)
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
