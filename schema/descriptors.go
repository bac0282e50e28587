package schema

import (
	"fmt"
	"regexp"
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
// declares it as a bare string, the registered descriptors narrow it to what is registered,
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
// engine's Components; validation never starts anything.
type Descriptor struct {
	Kind Kind
	Name string
	// Doc is one line for help texts and the JSON Schema.
	Doc string
	// Validate checks one instance (a toolset, a model section, a hook, the
	// user section, a stage) and reports through c. Nil: the schema is enough.
	Validate func(c *Check)

	// After (stages) names the stages that must run before this one when
	// both are listed in loop.stages: out of order is an error.
	After []string
	// Needed (stages) says which of the spec's own sections need this
	// stage, and why ("" when none does): validate warns when the stage is
	// missing from loop.stages, since the section then has no effect.
	// NeededDoc says the same for the reference ("observation.tool is set").
	Needed    func(s *Spec) (path, why string)
	NeededDoc string
	// Before (stages) names the stages this one should run before when the
	// spec needs it (Needed): listed after one of them is a warning.
	Before []string

	// Provides (toolset kinds) lists the tools an instance provides, known
	// without starting it; open is true when only the running back-end can
	// tell (an MCP server without a tools list).
	Provides func(name string, ts Toolset) (tools []string, open bool)
	// Args (toolset kinds) lists the arguments one of an instance's tools
	// takes, from its input schema, when that is known without starting it
	// (known false: only the running back-end can tell).
	Args func(ts Toolset, tool string) (args []string, known bool)
	// Physical (toolset kinds) lists the tools an instance's transport runs
	// as motions whatever the spec's contracts say (a rosbridge action),
	// known without starting it: rule tests judge a call with the contract
	// a session would (see Spec.TransportPhysical).
	Physical func(ts Toolset) []string

	// InProcess (toolset kinds): its tools run in the harness's process, so
	// an instance starts nothing (`thea context --offline` keeps it).
	InProcess bool

	// Config (toolset kinds, model providers, hook actions, user channels:
	// the components a section names) is the component's config type, as a
	// zero value: an instance's section is decoded into it once, at load
	// (Toolset.Config, Model.Config, PreHook.Config, PostHook.Config,
	// User.Config). Nil: the component has no fields of its own.
	Config any
	// CUE is the component's own fields as CUE (a toolset kind may embed
	// #Transport, the body layer's fields), and any definitions they use,
	// kept to the component (#Tool in a kind's CUE is #Toolset_<kind>_Tool
	// in the generated schema). The generated schema adds the fields every
	// such section has (#ToolsetCommon, #ModelCommon, ...) and names it
	// #Toolset_<name>, #Model_<name>, #PreHook_<name>, #PostHook_<name> or
	// #User_<name>.
	CUE string
}

// Descriptors are what validation knows of the components a build ships,
// by kind and name. It is an explicit value: the wiring package fills it
// (through engine.Components), Load and the engine read it.
type Descriptors struct {
	m map[Kind]map[string]Descriptor
}

// NewDescriptors makes an empty set of descriptors.
func NewDescriptors() *Descriptors { return &Descriptors{m: map[Kind]map[string]Descriptor{}} }

// Register adds a descriptor; an unknown kind, an empty name or a name
// registered twice for the same kind is an error.
func (c *Descriptors) Register(d Descriptor) error {
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
	if sk := sectionKindOf(d.Kind); sk != nil {
		if !kindName.MatchString(d.Name) {
			return fmt.Errorf("%s %q: a name is lower-case letters, digits and '_', starting with a letter", d.Kind, d.Name)
		}
		if _, _, err := ownCUE(sk.KindDef(d.Name), d.CUE); err != nil {
			return fmt.Errorf("%s %q: its CUE: %w", d.Kind, d.Name, err)
		}
	} else if d.Config != nil || d.CUE != "" {
		return fmt.Errorf("%s %q: a %s has no section of its own to configure", d.Kind, d.Name, d.Kind)
	}
	for _, a := range append(slices.Clone(d.After), d.Before...) {
		if a == d.Name {
			return fmt.Errorf("stage %q cannot be ordered against itself", d.Name)
		}
	}
	if d.Kind == KindStage && slices.Contains(FixedTurn(), d.Name) {
		return fmt.Errorf("stage %q is the engine's fixed turn, not a stage", d.Name)
	}
	byName[d.Name] = d
	return nil
}

// Lookup finds one component.
func (c *Descriptors) Lookup(k Kind, name string) (Descriptor, bool) {
	if c == nil {
		return Descriptor{}, false
	}
	d, ok := c.m[k][name]
	return d, ok
}

// Names lists a kind's registered names, sorted.
func (c *Descriptors) Names(k Kind) []string {
	if c == nil {
		return nil
	}
	return sortedKeys(c.m[k])
}

// enums is the CUE text narrowing each kind's definition to its names. A kind
// with nothing registered accepts nothing, so a spec naming it fails with a
// clear "not available in this build".
func (c *Descriptors) enums() string {
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

// schemaForm is what a generated schema is for.
type schemaForm int

const (
	// formLoad leaves component names plain strings (Load checks them in Go,
	// with suggestions) and selects a section's definition by the component
	// it names (a toolset's kind, a model's provider).
	formLoad schemaForm = iota
	// formCUE narrows the names to the registered ones (thea schema).
	formCUE
	// formJSON is formCUE with each sectioned definition (#Toolset,
	// #Model, ...) a disjunction of its components' definitions, which JSON
	// Schema renders as oneOf.
	formJSON
)

// schemaFor is the embedded schema completed by the descriptors: each
// sectioned component's definition and, narrowed, the registered names.
func schemaFor(c *Descriptors, form schemaForm) []byte {
	src := append([]byte(nil), schemaSource...)
	// Register checked each component's CUE: it parses.
	defs, _ := c.sectionDefs(form == formJSON)
	src = append(src, defs...)
	if form == formLoad || c == nil {
		return src
	}
	src = append(src, "\n// Narrowed to the components registered in this build.\n"...)
	return append(src, c.enums()...)
}

// kindName is what a sectioned component may be called: a CUE
// identifier's tail (#Toolset_<name>, #Model_<name>).
var kindName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

func mapKeys[K comparable, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
