package body

import (
	"context"

	"github.com/thea-harness/thea/engine"
)

// Layer is the body layer a host installs (engine.Components.SetBody): the
// engine starts every transport kind's toolsets through it, over one
// Shared, so toolsets of every kind driving one body share its locks and
// motion state, and no kind starts a back-end outside it.
type Layer struct {
	shared Shared
}

var _ engine.BodyLayer = (*Layer)(nil)

// NewLayer makes the body layer over shared, its defaults filled once.
func NewLayer(shared Shared) *Layer { return &Layer{shared: shared.WithDefaults()} }

// Start opens the transport of one toolset, connects it within
// start_timeout and lists its tools; every call then goes through the body
// layer. The toolset is a *Toolset.
func (l *Layer) Start(ctx context.Context, tc engine.ToolsetConfig, open engine.Transport) (engine.Toolset, error) {
	ts, err := start(ctx, tc, l.shared, open)
	if err != nil {
		return nil, err
	}
	return ts, nil
}
