package mcpserve

import (
	"context"
	"fmt"

	"github.com/thea-harness/thea/engine/model"
)

// Decider is the acting model of a session an MCP client drives: build the
// session with engine.Options{Decider: d}. Each decide request the engine
// makes waits in Generate until the client's next call (or the end of the
// task) answers it, so the client's call takes the model's one path through
// the turn: schema check, pre-hooks, body layer, post-hooks, evaluator,
// Scene Graph, Task Notes, run log.
type Decider struct {
	turns chan *pendingTurn
}

// NewDecider makes the decider one Server reads.
func NewDecider() *Decider { return &Decider{turns: make(chan *pendingTurn)} }

// pendingTurn is one decide request waiting for the client. What the server
// reads of the request is taken before it answers: the request is the
// engine's only until Generate returns.
type pendingTurn struct {
	req   model.Request
	reply chan model.Response
}

// Generate implements model.Model: it hands the request to the server and
// blocks until the server answers it or ctx ends.
func (d *Decider) Generate(ctx context.Context, req model.Request) (model.Response, error) {
	if req.Purpose != model.PurposeDecide && req.Purpose != "" {
		// The engine routes only decisions here (engine.Options.Decider).
		return model.Response{}, fmt.Errorf("the MCP client decides; a %s request is the spec model's", req.Purpose)
	}
	pt := &pendingTurn{req: req, reply: make(chan model.Response, 1)}
	select {
	case d.turns <- pt:
	case <-ctx.Done():
		return model.Response{}, fmt.Errorf("waiting for the MCP client's call: %w", ctx.Err())
	}
	select {
	case resp := <-pt.reply:
		return resp, nil
	case <-ctx.Done():
		return model.Response{}, fmt.Errorf("waiting for the MCP client's call: %w", ctx.Err())
	}
}
