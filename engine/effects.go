package engine

import (
	"errors"
	"fmt"
	"strings"

	"github.com/thea-harness/thea/engine/scenegraph"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// applyEffects changes the Scene Graph by the tool's declared effects, once,
// and only for an executed call whose evaluator verdict is success. A call
// no evaluate hook judged has no verdict and changes nothing: an unverified
// claim is not a fact about the world; the next observation will show what
// happened. Failure and process verdicts change nothing either. A physical
// call with no verdict or a process one marks what it may have changed
// unconfirmed (scenegraph.MarkUnconfirmed). The effects
// apply all or none; an effect that cannot be evaluated (an argument of the
// wrong type) applies none and says so in a scene event.
func (t *Turn) applyEffects(cc *CallContext, res CallResult, post PostResult) {
	spec := t.h.spec
	if !spec.SceneGraph.Enabled || spec.Rules == nil || !res.Executed {
		return
	}
	effs := spec.Rules.Effects[res.Tool]
	unverified := scenegraph.Unverified(cc.Tool.Contract.Physical, post.Verdict)
	if !unverified && (len(effs) == 0 || post.Verdict == nil || post.Verdict.Status != world.VerdictSuccess || !res.Env.Success) {
		return
	}
	env := schema.CheckEnv{
		Tool:   schema.ToolInfo{Name: res.Tool, Toolset: cc.Tool.Toolset, Tags: cc.Tool.Contract.Tags, Physical: cc.Tool.Contract.Physical},
		Args:   cc.Call.Args,
		Result: schema.ResultEnv{Success: res.Env.Success, Reason: res.Env.Reason, Value: res.Env.Value},
		Limits: spec.Embodiment.Limits,
	}
	if cc.Observation != nil {
		env.Before = *cc.Observation
	}
	if post.Evidence != nil {
		env.After = *post.Evidence
	}
	if unverified {
		// Nothing confirms what the call did: what it may have changed
		// reads "unconfirmed" until an observation reports it (A15).
		t.WithScene(func(g *scenegraph.Graph, clock int) { g.MarkUnconfirmed(clock, effs, &env) })
		return
	}
	ev := runlog.Event{Kind: runlog.EventScene, Tool: res.Tool, CallID: res.ID}
	ops, err := scenegraph.Evaluate(effs, &env)
	if err != nil {
		ev.Text = fmt.Sprintf("effects of %s not applied: %v", res.Tool, err)
		t.Emit(ev)
		return
	}
	var lines []string
	t.WithScene(func(g *scenegraph.Graph, clock int) {
		src := scenegraph.Source{Kind: "call", Tool: res.Tool, CallID: res.ID, Turn: clock}
		lines, err = g.Apply(fmt.Sprintf("%d/%s", clock, res.ID), src, ops)
	})
	switch {
	case errors.Is(err, scenegraph.ErrApplied):
		return
	case err != nil:
		ev.Text = fmt.Sprintf("effects of %s not applied: %v", res.Tool, err)
	default:
		ev.Text = strings.Join(lines, "; ")
	}
	t.Emit(ev)
}
