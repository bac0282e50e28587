package openai

import (
	"github.com/thea-harness/thea/engine/model/call"
	"github.com/thea-harness/thea/schema"
)

// section is a model section as a test writes it: the fields every model
// section has, and the provider's own.
type section struct {
	schema.Model
	Config
}

// build is NewWithOptions of a section.
func build(s section, o call.Options) (*Model, error) { return NewWithOptions(s.Model, s.Config, o) }

// spec is the section as a spec holds it: its Config the provider's.
func (s section) spec() schema.Model {
	m := s.Model
	m.Config = s.Config
	return m
}
