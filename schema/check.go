package schema

import (
	"context"
	"strings"

	"github.com/thea-harness/thea/internal/readfile"
)

// Check is what a component's Validate receives: the (possibly partial)
// spec, the path of the instance it checks, and a way to report problems at
// the user's positions. It starts nothing.
type Check struct {
	l *loader
	// Spec is the decoded spec; only sections that validated on their own
	// are filled.
	Spec *Spec
	// Path is the instance's section: "toolsets.sim", "model",
	// "hooks.pre[2]", "user", "loop.stages[3]".
	Path string
	// Dir is the spec's directory; relative paths resolve against it.
	Dir string
	// Name is the component's name as the spec gives it ("mcp", "openai",
	// "clamp", "script", "observe").
	Name string

	// section is the instance's fields every section of its kind has
	// (Toolset, Model, PreHook, PostHook, User), and config the component's
	// own, decoded at load into the type its descriptor registers: Typed
	// hands both to the component's check, typed.
	section, config any
}

// Typed adapts a component's check to its instance, typed: s is the
// section's fields every section of its kind has (Toolset, Model, PreHook,
// PostHook or User), and cfg the component's own section, decoded at load
// into the type its descriptor registers (T's zero value when it registers
// none). The descriptor is the one place the section is typed: a component
// never asserts it.
func Typed[S, T any](f func(c *Check, s S, cfg T)) func(*Check) {
	return func(c *Check) {
		s, _ := c.section.(S) // the loader's own: always an S
		cfg, err := ConfigAs[T](c.config)
		if err != nil {
			c.Errorf("", "%v", err)
			return
		}
		f(c, s, cfg)
	}
}

// at joins a path relative to the instance ("" is the instance itself, a
// leading "." or "[" continues it, anything else is a full spec path).
func (c *Check) at(rel string) string {
	switch {
	case rel == "":
		return c.Path
	case strings.HasPrefix(rel, "[") || strings.HasPrefix(rel, "."):
		return c.Path + rel
	default:
		return c.Path + "." + rel
	}
}

// Errorf reports a problem at rel (see at), pointing at its value when the
// user wrote one, else at the nearest written parent.
func (c *Check) Errorf(rel, format string, args ...any) {
	p := c.at(rel)
	c.l.errorf(c.l.valuePos(p), p, format, args...)
}

// ErrorfAtKey is Errorf pointing at the field's name rather than its value.
func (c *Check) ErrorfAtKey(rel, format string, args ...any) {
	p := c.at(rel)
	c.l.errorf(c.l.pos.lookup(p), p, format, args...)
}

// ErrorfInFile reports a problem inside a file the spec names (a scripted
// user's answers, a model script) at that file's own position; rel is the
// spec field that names the file.
func (c *Check) ErrorfInFile(rel string, at Pos, format string, args ...any) {
	c.l.errorf(at, c.at(rel), format, args...)
}

// Warnf reports a risk that does not stop the spec from loading.
func (c *Check) Warnf(rel, format string, args ...any) {
	p := c.at(rel)
	c.l.warnf(c.l.valuePos(p), p, format, args...)
}

// WarnfAtKey is Warnf pointing at the field's name rather than its value.
func (c *Check) WarnfAtKey(rel, format string, args ...any) {
	p := c.at(rel)
	c.l.warnf(c.l.pos.lookup(p), p, format, args...)
}

// File reports rel's file name (relative to the spec's directory) when run
// could not read it as a file of kind k: missing, a directory, a FIFO, a
// device, larger than the kind's limit, or unreadable.
func (c *Check) File(rel, name string, k readfile.Kind) {
	c.l.checkFile(c.Dir, c.at(rel), name, k)
}

// Directory reports rel's directory name when it does not exist relative
// to the spec's directory.
func (c *Check) Directory(rel, name string) {
	c.l.checkDir(c.Dir, c.at(rel), name)
}

// Context is the load's context (LoadOptions.Context), for a check that
// reads a file the spec names.
func (c *Check) Context() context.Context { return c.l.opts.Context }

// Resolve makes a spec-relative path absolute-or-relative to the process:
// the one resolution every component uses.
func (c *Check) Resolve(p string) string { return ResolvePath(c.Dir, p) }
