package schema

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Kind is a sort of component a spec names by a word: a stage, a toolset
// kind, a model provider, a hook action, a user channel.
type Kind string

// The kinds of component. Each has its own field in a spec: the word is
// checked against the names registered for that kind.
const (
	KindStage       Kind = "stage"
	KindToolset     Kind = "toolset kind"
	KindProvider    Kind = "model provider"
	KindPreAction   Kind = "pre-hook action"
	KindPostAction  Kind = "post-hook action"
	KindUserChannel Kind = "user channel"
)

// enumDef is the CUE definition each kind's names fill: the embedded schema
// declares it as a bare string, the catalog narrows it to what is registered,
// so the schema, its JSON Schema and its "must be one of" messages all come
// from the registrations.
var enumDef = map[Kind]string{
	KindStage:       "#StageName",
	KindToolset:     "#ToolsetKind",
	KindProvider:    "#Provider",
	KindPreAction:   "#PreAction",
	KindPostAction:  "#PostAction",
	KindUserChannel: "#UserChannel",
}

// Descriptor is what validation knows of one component: its name, what it
// checks in its own spec section, and, by kind, its ordering (stages) or the
// tools it provides (toolset kinds). The constructor lives beside it in the
// engine's catalog; validation never starts anything.
type Descriptor struct {
	Kind Kind
	Name string
	// Doc is one line for help texts and the JSON Schema.
	Doc string
	// Validate checks one instance (a toolset, a model section, a hook, the
	// user section, a stage) and reports through c. Nil: the schema is enough.
	Validate func(c *Check)

	// After (stages) names the stages that must run before this one when
	// both are listed in loop.stages.
	After []string
	// Required (stages) means every loop must list it.
	Required bool

	// Provides (toolset kinds) lists the tools an instance provides, known
	// without starting it; open is true when only the running back-end can
	// tell (an MCP server without a tools list).
	Provides func(name string, ts Toolset) (tools []string, open bool)
	// Args (toolset kinds) lists the arguments one of an instance's tools
	// takes, from its input schema, when that is known without starting it
	// (known false: only the running back-end can tell).
	Args func(ts Toolset, tool string) (args []string, known bool)
}

// Catalog is the set of components a build ships, by kind and name. It is
// an explicit value: the wiring package fills it, Load and the engine read it.
type Catalog struct {
	m map[Kind]map[string]Descriptor
}

// NewCatalog makes an empty catalog.
func NewCatalog() *Catalog { return &Catalog{m: map[Kind]map[string]Descriptor{}} }

// Register adds a descriptor; an unknown kind, an empty name or a name
// registered twice for the same kind is an error.
func (c *Catalog) Register(d Descriptor) error {
	if _, ok := enumDef[d.Kind]; !ok {
		return fmt.Errorf("register %q: unknown component kind %q", d.Name, d.Kind)
	}
	if d.Name == "" {
		return fmt.Errorf("register a %s: empty name", d.Kind)
	}
	byName := c.m[d.Kind]
	if byName == nil {
		byName = map[string]Descriptor{}
		c.m[d.Kind] = byName
	}
	if _, dup := byName[d.Name]; dup {
		return fmt.Errorf("%s %q registered twice", d.Kind, d.Name)
	}
	for _, a := range d.After {
		if a == d.Name {
			return fmt.Errorf("stage %q cannot run after itself", d.Name)
		}
	}
	byName[d.Name] = d
	return nil
}

// Lookup finds one component.
func (c *Catalog) Lookup(k Kind, name string) (Descriptor, bool) {
	if c == nil {
		return Descriptor{}, false
	}
	d, ok := c.m[k][name]
	return d, ok
}

// Names lists a kind's registered names, sorted.
func (c *Catalog) Names(k Kind) []string {
	if c == nil {
		return nil
	}
	return sortedKeys(c.m[k])
}

// enums is the CUE text narrowing each kind's definition to its names. A kind
// with nothing registered accepts nothing, so a spec naming it fails with a
// clear "not available in this build".
func (c *Catalog) enums() string {
	var b strings.Builder
	kinds := mapKeys(enumDef)
	slices.Sort(kinds)
	for _, k := range kinds {
		names := c.Names(k)
		quoted := make([]string, len(names))
		for i, n := range names {
			quoted[i] = strconv.Quote(n)
		}
		alt := strings.Join(quoted, " | ")
		if alt == "" {
			alt = "_|_ // nothing registered"
		}
		fmt.Fprintf(&b, "%s: %s\n", enumDef[k], alt)
	}
	return b.String()
}

// schemaWith is the embedded schema narrowed by the catalog's names.
func schemaWith(c *Catalog) []byte {
	if c == nil {
		return schemaSource
	}
	src := append([]byte(nil), schemaSource...)
	src = append(src, "\n// Narrowed to the components registered in this build.\n"...)
	return append(src, c.enums()...)
}

func mapKeys[K comparable, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
