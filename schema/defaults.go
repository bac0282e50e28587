package schema

import (
	"fmt"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
)

// ToolsetDefaults is a toolset section of kind with every field the
// schema gives a default (#ToolsetCommon and the body layer's
// #Transport), decoded from the embedded CUE: the one source of those
// defaults. Load fills them in a spec; a toolset built in Go starts from
// this value, so no layer keeps a second copy.
func ToolsetDefaults(kind string) (Toolset, error) {
	ctx := cuecontext.New()
	s := ctx.CompileBytes(schemaFor(nil, formLoad), cue.Filename(schemaFile))
	if err := s.Err(); err != nil {
		return Toolset{}, fmt.Errorf("compiling the schema: %w", err)
	}
	var t Toolset
	common := s.LookupPath(cue.MakePath(cue.Def("ToolsetCommon"))).FillPath(cue.ParsePath("kind"), kind)
	if err := common.Decode(&t); err != nil {
		return Toolset{}, fmt.Errorf("the defaults of #ToolsetCommon: %w", err)
	}
	if err := s.LookupPath(cue.MakePath(cue.Def("Transport"))).Decode(&t); err != nil {
		return Toolset{}, fmt.Errorf("the defaults of #Transport: %w", err)
	}
	return t, nil
}

// checkTransport refuses a start_timeout that cannot start anything: the
// body layer keeps no default to fall back on, so "0s" would fail every
// start. (A kind whose tools run in process has no start.)
func (l *loader) checkTransport(s *Spec) {
	for _, name := range sortedKeys(s.Toolsets) {
		ts := s.Toolsets[name]
		if d, ok := l.opts.Descriptors.Lookup(KindToolset, ts.Kind); !ok || d.InProcess || ts.StartTimeout > 0 {
			continue
		}
		p := "toolsets." + name + ".start_timeout"
		l.errorf(l.valuePos(p), p, "start_timeout is %s: a back-end needs time to start; leave it out for the default or give a positive duration", ts.StartTimeout.D())
	}
}
