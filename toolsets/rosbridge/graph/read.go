package graph

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// ReadGraph is the running graph as rosapi describes it, for a spec drafted
// from it (`thea init --from-ros`): every topic with its type, and the
// services and action servers an integrator may want as tools, each with
// its type and the definitions of its request and response, or its goal
// and result. It reads through the
// same rosapi client as `thea validate --live`, and it is bounded: at most
// MaxEndpoints services and actions are looked up, and a definition is
// followed at most MaxDepth messages deep (a cycle ends there too).
func ReadGraph(ctx context.Context, url string, header http.Header) (*Graph, error) {
	cl, err := wire.Dial(ctx, wire.Options{URL: url, Header: header})
	if err != nil {
		return nil, fmt.Errorf("rosbridge could not be reached: %w", err)
	}
	defer cl.Close()
	g := NewRosapi(ctx, cl)
	out := &Graph{}
	if err := g.loadTopics(); err != nil {
		return nil, fmt.Errorf("rosapi did not list the topics (is the rosapi node running? rosbridge_websocket_launch.xml starts it): %w", err)
	}
	out.Topics = g.topics
	if err := g.loadServices(); err != nil {
		out.Notes = append(out.Notes, fmt.Sprintf("rosapi did not list the services (%v): no service tools drafted", err))
	}
	if err := g.loadActions(); err != nil {
		out.Notes = append(out.Notes, fmt.Sprintf("rosapi did not list the action servers (%v; rosapi before Humble has no action services): no action tools drafted", err))
	}
	services := candidates(g.services, infraService)
	actions := candidates(g.actions, func(string) bool { return false })
	if n := len(services) + len(actions); n > MaxEndpoints {
		out.Notes = append(out.Notes, fmt.Sprintf("the graph has %d services and action servers beyond rosapi's own: the first %d (by name) were read", n, MaxEndpoints))
		if len(actions) > MaxEndpoints {
			actions = actions[:MaxEndpoints]
		}
		services = services[:min(len(services), MaxEndpoints-len(actions))]
	}
	for _, name := range actions {
		e := Endpoint{Name: name, Type: g.TypeOf("/rosapi/action_type", "action", name)}
		if e.Type != "" {
			e.Goal, e.Why = g.message("/rosapi/action_goal_details", e.Type)
			e.Response, _ = g.message("/rosapi/action_result_details", e.Type)
		}
		out.Actions = append(out.Actions, e)
	}
	for _, name := range services {
		e := Endpoint{Name: name, Type: g.TypeOf("/rosapi/service_type", "service", name)}
		if e.Type != "" {
			e.Goal, e.Why = g.message("/rosapi/service_request_details", e.Type)
			e.Response, _ = g.message("/rosapi/service_response_details", e.Type)
		}
		out.Services = append(out.Services, e)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("reading the graph: %w", err)
	}
	return out, nil
}

// Bounds of ReadGraph.
const (
	// MaxEndpoints is the most services and action servers looked up (each
	// costs rosapi calls).
	MaxEndpoints = 64
	// MaxDepth is how deep a definition is followed.
	MaxDepth = 6
	// MaxFields is the most fields one definition is read to.
	MaxFields = 512
)

// Graph is what ReadGraph read.
type Graph struct {
	// Topics are every topic by name, with its type.
	Topics map[string]string
	// Actions and Services are sorted by name; a Type of "" is one rosapi
	// could not type.
	Actions, Services []Endpoint
	// Notes say what rosapi could not answer, and what was left out.
	Notes []string
}

// Endpoint is an action server or a service.
type Endpoint struct {
	Name, Type string
	// Goal is an action's goal or a service's request; nil when rosapi
	// could not describe it (Why says why).
	Goal *Message
	Why  string
	// Response is a service's response or an action's result (nil when
	// unknown).
	Response *Message
}

// Message is a message definition, its fields in rosapi's order.
type Message struct {
	Type   string
	Fields []Field
}

// Field is one field: a primitive (Message nil) or a message. Cut is set
// when a message field was not followed (too deep, a cycle, no definition).
type Field struct {
	Name, Type string
	Array      bool
	Message    *Message
	Cut        bool
}

// candidates is names without the infrastructure, sorted.
func candidates(names []string, infra func(string) bool) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if !infra(n) {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// infraService: rosapi's and rosbridge's own services, every node's
// parameter and type-description services, an action's hidden services.
func infraService(name string) bool {
	if strings.HasPrefix(name, "/rosapi") || strings.HasPrefix(name, "/rosbridge") || strings.Contains(name, "/_action/") {
		return true
	}
	i := strings.LastIndexByte(name, '/')
	switch name[i+1:] {
	case "describe_parameters", "get_parameters", "get_parameter_types", "list_parameters",
		"set_parameters", "set_parameters_atomically", "get_type_description":
		return true
	}
	return false
}

// message loads typ's definition through a details service and follows
// it; why says why there is none.
func (g *Rosapi) message(service, typ string) (*Message, string) {
	root, skip, err := g.Details(service, typ)
	switch {
	case err != nil:
		return nil, err.Error()
	case skip != "":
		return nil, skip
	case root == "":
		return nil, fmt.Sprintf("%s has no definition of %s", service, typ)
	}
	budget := MaxFields
	return g.follow(root, map[string]bool{}, 0, &budget), ""
}

// follow builds typ's Message from the loaded definitions; on the path a
// type seen again (a cycle) or past MaxDepth is cut, and at most budget
// fields are built in all (a definition shared many times over).
func (g *Rosapi) follow(typ string, path map[string]bool, depth int, budget *int) *Message {
	d := g.defs[typ]
	m := &Message{Type: typ}
	path[typ] = true
	defer delete(path, typ)
	for i, name := range d.FieldNames {
		if *budget <= 0 {
			break
		}
		*budget--
		f := Field{Name: name, Type: d.FieldTypes[i]}
		if i < len(d.ArrayLen) {
			f.Array = d.ArrayLen[i] >= 0
		}
		if _, ok := g.defs[f.Type]; ok {
			if path[f.Type] || depth+1 >= MaxDepth {
				f.Cut = true
			} else {
				f.Message = g.follow(f.Type, path, depth+1, budget)
			}
		} else if !primitive(f.Type) {
			f.Cut = true
		}
		m.Fields = append(m.Fields, f)
	}
	return m
}

// primitive reports whether a rosapi field type is a primitive.
func primitive(t string) bool {
	switch t {
	case "bool", "boolean", "byte", "char", "octet", "int8", "uint8", "int16", "uint16", "int32",
		"uint32", "int64", "uint64", "float", "float32", "double", "float64", "string", "wstring":
		return true
	}
	return strings.HasPrefix(t, "string<") || strings.HasPrefix(t, "wstring<")
}

// SortedTopics is g's topic names, sorted.
func (g *Graph) SortedTopics() []string { return slices.Sorted(maps.Keys(g.Topics)) }
