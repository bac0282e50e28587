package engine

import (
	"context"
	"fmt"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/redact"
	"github.com/thea-harness/thea/schema"
)

// Component is anything a spec names by kind and word: a stage, a toolset
// kind, a model provider, a user channel, a hook action. Describe is what
// validation knows of it; the concrete type carries its constructor.
type Component interface {
	Describe() schema.Descriptor
}

// Components are the build's components, each registered once with its
// descriptor and constructor. One wiring package fills it; schema.Load
// validates against its Descriptors() and New builds from it, so a spec resolves the
// same way in `thea validate` and `thea run`.
type Components struct {
	schema *schema.Descriptors
	comps  map[schema.Kind]map[string]Component
	// body is the host's body layer (SetBody): every transport kind's
	// toolsets start under it.
	body BodyLayer
}

// NewComponents makes an empty set of components.
func NewComponents() *Components {
	return &Components{schema: schema.NewDescriptors(), comps: map[schema.Kind]map[string]Component{}}
}

// Add registers components; a duplicate name of the same kind is an error.
func (c *Components) Add(comps ...Component) error {
	for _, comp := range comps {
		if k, ok := comp.(ToolsetKind); ok {
			if err := k.check(); err != nil {
				return fmt.Errorf("registering components: %w", err)
			}
		}
		d := comp.Describe()
		if err := c.schema.Register(d); err != nil {
			return fmt.Errorf("registering components: %w", err)
		}
		if c.comps[d.Kind] == nil {
			c.comps[d.Kind] = map[string]Component{}
		}
		c.comps[d.Kind][d.Name] = comp
	}
	return nil
}

// SetBody installs the host's body layer: every toolset of a transport kind
// starts under it (StartToolset), and without one none starts. The wiring
// installs one per process, so toolsets of every kind driving one body
// share its locks and motion state.
func (c *Components) SetBody(b BodyLayer) { c.body = b }

// Descriptors is what validation knows of the components, for schema.Load.
func (c *Components) Descriptors() *schema.Descriptors { return c.schema }

// Lookup finds a component by kind and name.
func (c *Components) Lookup(k schema.Kind, name string) (Component, error) {
	comp, ok := c.comps[k][name]
	if !ok {
		return nil, fmt.Errorf("%s %q is not available in this build (available: %v)", k, name, c.schema.Names(k))
	}
	return comp, nil
}

// Get finds a component of kind k and concrete type T.
func Get[T Component](c *Components, k schema.Kind, name string) (T, error) {
	var zero T
	comp, err := c.Lookup(k, name)
	if err != nil {
		return zero, err
	}
	t, ok := comp.(T)
	if !ok {
		return zero, fmt.Errorf("%s %q is registered as %T, not %T", k, name, comp, zero)
	}
	return t, nil
}

// NewModel builds the model a spec's model section names.
func (c *Components) NewModel(cfg schema.Model, dir string) (model.Model, error) {
	p, err := Get[ProviderKind](c, schema.KindProvider, cfg.Provider)
	if err != nil {
		return nil, err
	}
	m, err := p.New(cfg, dir)
	if err != nil {
		return nil, fmt.Errorf("model provider %q: %w", cfg.Provider, err)
	}
	return m, nil
}

// ToolsetKind is a kind of toolset ("builtin", "mcp", "rosbridge"). An
// out-of-process kind is its Transport, its typed config and its CUE
// definition: the engine starts every such toolset under the host's body
// layer and guards its tools (StartToolset), so a kind cannot build one
// without them. Only tools that run in the harness and move nothing are
// InProcess. A new kind is its own package and one ToolsetKind.
type ToolsetKind struct {
	Name string
	Doc  string
	// Config is the kind's config type (a zero value) and CUE its fields'
	// definition: each instance's own section is checked against it and
	// decoded into schema.Toolset.Config (see schema.Descriptor).
	Config   any
	CUE      string
	Validate func(*schema.Check)
	// Provides lists an instance's tools without starting it (see
	// schema.Descriptor.Provides); nil means only a live listing can tell.
	Provides func(name string, ts schema.Toolset) (tools []string, open bool)
	// Args lists a tool's arguments without starting the toolset (see
	// schema.Descriptor.Args); nil means only a live listing can tell.
	Args func(ts schema.Toolset, tool string) (args []string, known bool)
	// Physical lists the tools the transport runs as motions whatever the
	// contracts say, without starting it (see schema.Descriptor.Physical);
	// its back-end's profile must say the same (BackendProfile.Physical).
	Physical func(ts schema.Toolset) []string
	// Transport opens one toolset's back-end: the kind's whole runtime
	// part. The host's body layer starts it (BodyLayer); set it or
	// InProcess, not both.
	Transport Transport
	// InProcess builds a toolset whose tools run in the harness (builtin):
	// nothing to start, no body layer, so none of its tools may be
	// physical (StartToolset refuses one). Close releases what it owns.
	InProcess func(ctx context.Context, cfg ToolsetConfig) (Toolset, error)
	// LiveCheck, when set, checks an instance against its running
	// back-end beyond its tool list (thea validate --live): a topic the
	// graph lacks, a wrong type. Each problem is at a path inside the
	// toolset's section ("rosbridge.observation.pose.topic"); ctx bounds it.
	LiveCheck func(ctx context.Context, cfg ToolsetConfig) []LiveProblem
}

// check refuses a kind with no way to start, or two.
func (k ToolsetKind) check() error {
	switch {
	case k.Transport == nil && k.InProcess == nil:
		return fmt.Errorf("toolset kind %q has neither a Transport nor InProcess tools", k.Name)
	case k.Transport != nil && k.InProcess != nil:
		return fmt.Errorf("toolset kind %q has both a Transport and InProcess tools: a back-end's tools run under the body layer, in-process tools beside it", k.Name)
	}
	return nil
}

// LiveProblem is one finding of a kind's LiveCheck.
type LiveProblem struct {
	// Path is inside the toolset's section.
	Path    string
	Message string
	Warning bool
}

// ToolsetKinds lists the registered toolset kinds, sorted by name.
func (c *Components) ToolsetKinds() []ToolsetKind {
	var out []ToolsetKind
	for _, name := range c.schema.Names(schema.KindToolset) {
		if k, ok := c.comps[schema.KindToolset][name].(ToolsetKind); ok {
			out = append(out, k)
		}
	}
	return out
}

// Describe implements Component.
func (k ToolsetKind) Describe() schema.Descriptor {
	return schema.Descriptor{Kind: schema.KindToolset, Name: k.Name, Doc: k.Doc, Validate: k.Validate, Provides: k.Provides, Args: k.Args, Physical: k.Physical,
		InProcess: k.InProcess != nil, Config: k.Config, CUE: k.CUE}
}

// ToolsetConfig is what a toolset is built from: its own section and the
// few session facts it needs, never the whole spec.
type ToolsetConfig struct {
	// Name is the toolset's key in the spec's toolsets.
	Name    string
	Section schema.Toolset
	// Dir is the spec's directory; relative paths resolve against it.
	Dir string
	// Contract is the spec's contract of one of this toolset's tools.
	Contract func(tool string) schema.ToolContract
	// Observation is the spec's observation tool reference, so a toolset can
	// tell an observation of the body from other calls.
	Observation string
	// Stream is the running task's event stream and a hold on its end, for
	// what the toolset reports on its own time (nil: none, as in a live
	// check). An in-process tool's calls get a CallHandle each instead.
	Stream TaskStream
	// Body is the robot the toolset drives: physical calls of every toolset
	// of one body share its motion state and lock.
	Body schema.Embodiment
	// Uncertainty scopes the uncertainty after a fault: "body" (every
	// physical tool) or "toolset" (this toolset's alone).
	Uncertainty string
	// Redactor is the session's (see NewRedactor): StartToolset passes the
	// error a toolset fails to start with through it, and what it logs of
	// the back-end's tools. nil redacts nothing.
	Redactor *redact.Redactor
}

// contract is the spec's contract of one of the toolset's tools.
func (c ToolsetConfig) contract(tool string) schema.ToolContract {
	if c.Contract == nil {
		return schema.ToolContract{}
	}
	return c.Contract(tool)
}

// StageKind is one context stage of the turn pipeline (see
// schema.Descriptor for After, Needed and Before).
type StageKind struct {
	Name string
	Doc  string
	// After names the stages that must run before this one when both are
	// listed (an error otherwise).
	After []string
	// Needed says which of a spec's sections need this stage (validate
	// warns when it is missing); Before, the stages it should then precede.
	Needed    func(s *schema.Spec) (path, why string)
	NeededDoc string
	Before    []string
	Validate  func(*schema.Check)
	New       func(spec *schema.Spec) (Stage, error)
}

// Describe implements Component.
func (k StageKind) Describe() schema.Descriptor {
	return schema.Descriptor{Kind: schema.KindStage, Name: k.Name, Doc: k.Doc, After: k.After,
		Needed: k.Needed, NeededDoc: k.NeededDoc, Before: k.Before, Validate: k.Validate}
}

// ProviderKind is a model provider ("openai", "script"). Config is its
// config type (a zero value) and CUE its fields' definition: each model
// section naming it is checked against them and decoded into
// schema.Model.Config (see schema.Descriptor). TypedProvider builds one over
// its own config type.
type ProviderKind struct {
	Name     string
	Doc      string
	Config   any
	CUE      string
	Validate func(*schema.Check)
	// New builds a model from its spec section (its Config decoded); dir is
	// the spec's directory.
	New func(m schema.Model, dir string) (model.Model, error)
}

// Describe implements Component.
func (k ProviderKind) Describe() schema.Descriptor {
	return schema.Descriptor{Kind: schema.KindProvider, Name: k.Name, Doc: k.Doc, Validate: k.Validate, Config: k.Config, CUE: k.CUE}
}

// TypedProvider is a provider over its own config type T: validate and
// build receive the model section and its Config as a T (T's zero value
// when the section carries none, as one built in Go may). validate may be
// nil.
func TypedProvider[T any](name, doc, cue string, validate func(c *schema.Check, m schema.Model, cfg T),
	build func(m schema.Model, cfg T, dir string) (model.Model, error)) ProviderKind {
	var zero T
	k := ProviderKind{Name: name, Doc: doc, Config: zero, CUE: cue,
		New: func(m schema.Model, dir string) (model.Model, error) {
			cfg, err := schema.ConfigAs[T](m.Config)
			if err != nil {
				return nil, fmt.Errorf("model provider %q: %w", name, err)
			}
			return build(m, cfg, dir)
		}}
	if validate != nil {
		k.Validate = schema.Typed(validate)
	}
	return k
}

// UserChannelKind is the person at the other end of query_user and
// notify_user ("terminal", "script", "none"). Config and CUE are its own
// fields, as a provider's are; TypedUserChannel builds one over its config
// type.
type UserChannelKind struct {
	Name     string
	Doc      string
	Config   any
	CUE      string
	Validate func(*schema.Check)
	New      func(u schema.User, dir string) (UserChannel, error)
}

// Describe implements Component.
func (k UserChannelKind) Describe() schema.Descriptor {
	return schema.Descriptor{Kind: schema.KindUserChannel, Name: k.Name, Doc: k.Doc, Validate: k.Validate, Config: k.Config, CUE: k.CUE}
}

// TypedUserChannel is a user channel over its own config type T (see
// TypedProvider).
func TypedUserChannel[T any](name, doc, cue string, validate func(c *schema.Check, u schema.User, cfg T),
	build func(u schema.User, cfg T, dir string) (UserChannel, error)) UserChannelKind {
	var zero T
	k := UserChannelKind{Name: name, Doc: doc, Config: zero, CUE: cue,
		New: func(u schema.User, dir string) (UserChannel, error) {
			cfg, err := schema.ConfigAs[T](u.Config)
			if err != nil {
				return nil, fmt.Errorf("user channel %q: %w", name, err)
			}
			return build(u, cfg, dir)
		}}
	if validate != nil {
		k.Validate = schema.Typed(validate)
	}
	return k
}

var (
	_ Component = ToolsetKind{}
	_ Component = StageKind{}
	_ Component = ProviderKind{}
	_ Component = UserChannelKind{}
)
