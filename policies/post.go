package policies

import (
	"context"
	"fmt"

	"github.com/expr-lang/expr/vm"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/rules"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// PostCall is the post-execution chain of one completed call: what post
// actions read and the verdict and notes they produce.
type PostCall struct {
	Hook   *schema.PostHook
	CC     *engine.CallContext
	Result *runlog.Envelope
	Env    *schema.CallEnv
	// Verdict is set by the first evaluate hook; later ones do not run again,
	// so a call is evaluated exactly once.
	Verdict *world.Verdict
	// Evidence is the post-execution Observation the evaluation read.
	Evidence *world.Observation
	Notes    []string
	policy   *Policy
}

// Post runs the post-execution chain on a call the tool executed. The engine
// calls it only for executed calls; a call the pre chain refused is ignored
// here too, so it is never evaluated. The returned verdict never carries the
// post-condition.
func (p *Policy) Post(ctx context.Context, cc *engine.CallContext, res *runlog.Envelope) engine.PostResult {
	if res == nil || p.wasRefused(cc.Call.ID) {
		return engine.PostResult{}
	}
	env := p.callEnv(cc, cc.Call.Args)
	env.Result = schema.ResultEnv{Success: res.Success, Reason: res.Reason, Value: res.Value}
	pc := &PostCall{CC: cc, Result: res, Env: &env, policy: p}
	machine := rules.NewVM()
	for i := range p.post {
		h := &p.post[i]
		pc.Hook = h.hook
		v := p.postStep(ctx, h, pc, machine)
		emit(cc, runlog.Event{Kind: runlog.EventHook, Hook: &v})
	}
	return engine.PostResult{Verdict: pc.Verdict, Evidence: pc.Evidence, Notes: pc.Notes}
}

func (p *Policy) postStep(ctx context.Context, h *postHook, pc *PostCall, machine *vm.VM) (v runlog.Decision) {
	v = runlog.Decision{Hook: h.hook.Name, Phase: "post", Decision: runlog.DecisionSkip}
	defer func() {
		if r := recover(); r != nil {
			v = runlog.Decision{Hook: h.hook.Name, Phase: "post", Decision: runlog.DecisionSkip,
				Reason: fmt.Sprintf("hook %q failed: %v", h.hook.Name, r)}
			// An evaluation that panicked confirmed nothing: fail closed.
			if h.judge && pc.Verdict == nil {
				fv := scrub(failure("evaluator", "the evaluation of %s failed: %v", pc.CC.Call.Tool, r), p.contract(pc.CC).PostCondition)
				pc.Verdict = &fv
				emit(pc.CC, runlog.Event{Kind: runlog.EventEvaluation, Verdict: &fv})
				v.Decision, v.Reason = runlog.DecisionEvaluate, string(fv.Status)+": "+fv.Reason
			}
		}
	}()
	if h.rules.When != nil {
		out, err := rules.Run(machine, h.rules.When, pc.Env)
		if err != nil {
			// A post-hook cannot block a call that already ran; a judging
			// hook whose selection fails still judges the call (fail closed).
			if !h.judge {
				v.Reason = fmt.Sprintf("when failed: %v", err)
				return v
			}
		} else if b, _ := out.(bool); !b {
			v.Reason = "when does not hold"
			return v
		}
	}
	v = h.action(ctx, pc)
	v.Hook, v.Phase = h.hook.Name, "post"
	return v
}

// actNote adds the hook's note, or a one-line outcome, to the Task Notes.
func actNote(_ context.Context, c *PostCall, cfg NoteConfig) runlog.Decision {
	text := cfg.Note
	if text == "" {
		text = fmt.Sprintf("%s: %s", c.CC.Call.Tool, outcome(c.Result, c.Verdict))
	}
	c.Notes = append(c.Notes, text)
	return runlog.Decision{Decision: runlog.DecisionNote, Reason: text}
}

func outcome(res *runlog.Envelope, v *world.Verdict) string {
	switch {
	case v != nil && v.Status == world.VerdictFailure:
		return "failed: " + v.Reason
	case v != nil && v.Status == world.VerdictProcess:
		return "in progress"
	case !res.Success:
		return "failed: " + res.Reason
	}
	return "success"
}
