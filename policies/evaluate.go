package policies

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/expr-lang/expr/vm"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/rules"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// actEvaluate is the hidden evaluate_run hook: it judges a completed call by
// the tool's check or the evaluator model, once per call.
func actEvaluate(ctx context.Context, c *PostCall) runlog.Decision {
	if c.Verdict != nil {
		return runlog.Decision{Decision: runlog.DecisionSkip, Reason: "already evaluated"}
	}
	v := c.policy.evaluate(ctx, c)
	v = scrub(v, c.policy.contract(c.CC).PostCondition)
	c.Verdict = &v
	emit(c.CC, runlog.Event{Kind: runlog.EventEvaluation, Verdict: &v})
	r := string(v.Status)
	if v.Reason != "" {
		r += ": " + v.Reason
	}
	return runlog.Decision{Decision: runlog.DecisionEvaluate, Reason: r}
}

func (p *Policy) contract(cc *engine.CallContext) schema.ToolContract {
	if cc.Tool != nil {
		return cc.Tool.Contract
	}
	return p.spec.Tools[cc.Call.Tool]
}

func failure(source, format string, a ...any) world.Verdict {
	return world.Verdict{Status: world.VerdictFailure, Reason: fmt.Sprintf(format, a...), Source: source}
}

// evaluate decides one verdict. Only the tool's name, its arguments, the
// post-condition and the evidence for the run reach the judge: never the
// acting model's reasoning, the instruction or the back-end's claim.
func (p *Policy) evaluate(ctx context.Context, c *PostCall) world.Verdict {
	name := c.CC.Call.Tool
	contract := p.contract(c.CC)
	if !c.Result.Success {
		p.resetSegments(name)
		return world.Verdict{Status: world.VerdictFailure, Reason: c.Result.Reason, Source: "tool", Confidence: 1}
	}
	runID := c.Result.RunID
	if runID == "" {
		runID = c.CC.Call.RunID
	}
	check := p.checkProgram(name)
	var after world.Observation
	if check != nil || contract.Verify == nil || p.verifyReadsAfter(name) {
		var err error
		if after, err = p.evidence(ctx, runID); err != nil {
			p.resetSegments(name)
			return failure("evaluator", "no evidence for the run: %v", err)
		}
		// Scene Graph effects read what the evidence showed.
		c.Evidence = &after
	}
	if check != nil || contract.Verify != nil {
		env := p.checkEnv(c, after)
		if check != nil {
			// A check that fails decides; one that holds leaves the verifier,
			// if any, the last word.
			if v := judgeCheck(name, check, &env); v.Status != world.VerdictSuccess || contract.Verify == nil {
				p.resetSegments(name)
				return v
			}
		}
		// A verifier's verdict is bounded like a model's: process only for
		// segmented tools, success only above the confidence threshold.
		return p.admit(name, contract, p.verify(ctx, name, contract.Verify, &env))
	}
	v := p.askModel(ctx, name, c.CC.Call.Args, contract.PostCondition, after)
	return p.admit(name, contract, v)
}

// evidence reads the post-execution Observation for a run from the spec's
// evidence tool (default: the observation tool).
func (p *Policy) evidence(ctx context.Context, runID string) (world.Observation, error) {
	tool := p.spec.Evaluator.Evidence
	args := map[string]any{}
	if tool == "" {
		tool = p.spec.Observation.Tool
		for k, v := range p.spec.Observation.Args {
			args[k] = v
		}
	}
	if tool == "" {
		return world.Observation{}, fmt.Errorf("no evidence tool is configured (evaluator.evidence or observation.tool)")
	}
	if p.tools == nil {
		return world.Observation{}, fmt.Errorf("evidence tool %q cannot be called: the policy has no tools", tool)
	}
	if p.spec.Evaluator.RunIDArg != "" && runID != "" {
		args[p.spec.Evaluator.RunIDArg] = runID
	}
	env := p.tools.Read(ctx, engine.PurposeEvidence, tool, args)
	if !env.Success {
		return world.Observation{}, fmt.Errorf("evidence tool %q failed: %s", tool, env.Reason)
	}
	value := env.Value
	if nested, ok := value["observation"].(map[string]any); ok {
		value = nested
	}
	obs, err := world.DecodeValue(value)
	if err != nil {
		return world.Observation{}, fmt.Errorf("evidence from %q is not an observation: %w", tool, err)
	}
	if runID != "" && obs.RunID != "" && obs.RunID != runID {
		return world.Observation{}, fmt.Errorf("evidence from %q is for run %q, not %q", tool, obs.RunID, runID)
	}
	obs.Images = env.Images
	return obs, nil
}

func (p *Policy) checkProgram(name string) *vm.Program { return p.checks[name] }

// checkEnv is what a check and a verifier's arguments read of the call.
func (p *Policy) checkEnv(c *PostCall, after world.Observation) schema.CheckEnv {
	env := schema.CheckEnv{
		Tool:   c.Env.Tool,
		Args:   c.CC.Call.Args,
		After:  after,
		Result: c.Env.Result,
		Limits: p.spec.Embodiment.Limits,
	}
	if c.CC.Observation != nil {
		env.Before = *c.CC.Observation
	}
	return env
}

// judgeCheck decides deterministically with a contract's check; a run-time
// error is a failure.
func judgeCheck(tool string, check *vm.Program, env *schema.CheckEnv) world.Verdict {
	out, err := rules.Run(nil, check, env)
	if m := rules.Missing(err); m != nil {
		// An unknown confirms nothing: not a pass.
		return failure("check", "the check of %s is not confirmed: %v", tool, m)
	}
	if err != nil {
		return failure("check", "the check of %s could not be evaluated: %v", tool, err)
	}
	if ok, _ := out.(bool); !ok {
		return failure("check", "the post-execution observation does not satisfy the check of %s", tool)
	}
	return world.Verdict{Status: world.VerdictSuccess, Evidence: "the deterministic check held on the post-execution observation",
		Confidence: 1, Source: "check"}
}

// admit applies the spec's limits to a model verdict: process only for
// segmented tools and at most max_segments times in a row, success only
// above the confidence threshold.
func (p *Policy) admit(name string, contract schema.ToolContract, v world.Verdict) world.Verdict {
	if v.Status != world.VerdictProcess {
		p.resetSegments(name)
	}
	switch v.Status {
	case world.VerdictProcess:
		if !contract.Segmented {
			return failure("model", "the evaluator answered process, but %s is not a segmented tool", name)
		}
		p.mu.Lock()
		p.segments[name]++
		n := p.segments[name]
		p.mu.Unlock()
		if n > contract.MaxSegments {
			p.resetSegments(name)
			return failure("model", "%s still in process after %d segments (max_segments %d)", name, n-1, contract.MaxSegments)
		}
	case world.VerdictSuccess:
		if th := p.spec.Evaluator.VerdictThreshold; v.Confidence < th {
			return failure("model", "the evaluator's confidence %.2f is below the threshold %.2f", v.Confidence, th)
		}
	}
	return v
}

func (p *Policy) resetSegments(name string) {
	p.mu.Lock()
	delete(p.segments, name)
	p.mu.Unlock()
}

// scrub keeps the post-condition out of what returns to the engine even if
// the judge quoted it, also loosely: its words in order, whatever the case,
// spacing or punctuation between them.
func scrub(v world.Verdict, postCondition string) world.Verdict {
	words := wordRE.FindAllString(postCondition, -1)
	if len(words) == 0 {
		return v
	}
	for i, w := range words {
		words[i] = regexp.QuoteMeta(w)
	}
	re, err := regexp.Compile(`(?i)` + strings.Join(words, `[^\p{L}\p{N}]+`))
	if err != nil { // quoted words always compile; stay safe regardless
		v.Reason, v.Evidence = "[verdict text withheld]", ""
		return v
	}
	v.Reason = re.ReplaceAllLiteralString(v.Reason, "[post-condition]")
	v.Evidence = re.ReplaceAllLiteralString(v.Evidence, "[post-condition]")
	return v
}

// wordRE matches one word of a post-condition.
var wordRE = regexp.MustCompile(`[\p{L}\p{N}]+`)
