package engine

import (
	"context"

	"github.com/thea-harness/thea/engine/model"
)

// deciderLabel names the decider in the run log's model calls.
const deciderLabel = "mcp-client"

// decidedBy is the session's acting model: base, or, with Options.Decider,
// a router sending the decide requests to the decider and every other
// purpose (evaluate, compact, consolidate) to base. Both are recorded and
// redacted like any model (recordedModel).
func (h *Harness) decidedBy(base model.Model) model.Model {
	if h.opts.Decider == nil {
		return base
	}
	pick, _ := h.opts.Decider.(TaskDecider)
	return decideRouter{decider: recordedModel{m: h.opts.Decider, h: h, name: deciderLabel}, base: base, pick: pick}
}

// decideRouter routes a request by its purpose; an unnamed purpose is a
// decision, as recordedModel counts it.
type decideRouter struct {
	decider, base model.Model
	pick          TaskDecider // nil: the decider decides every task
}

// Generate implements model.Model.
func (r decideRouter) Generate(ctx context.Context, req model.Request) (model.Response, error) {
	if (req.Purpose == model.PurposeDecide || req.Purpose == "") && (r.pick == nil || r.pick.Decides(ctx)) {
		return r.decider.Generate(ctx, req)
	}
	return r.base.Generate(ctx, req)
}
