package policies

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/rules"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

// verify calls a contract's verifier tool and reads its result as the
// verdict. The call goes through the policy's tools, never through the acting
// model's conversation: only the verdict's reason (scrubbed like every
// verdict) reaches the model, never the verifier's result.
func (p *Policy) verify(ctx context.Context, tool string, v *schema.Verify, env *schema.CheckEnv) world.Verdict {
	args := make(map[string]any, len(v.Args))
	for k, prog := range p.spec.Rules.VerifyArgs[tool] {
		out, err := rules.Run(nil, prog, env)
		if err != nil {
			return failure("verifier", "the verifier argument %s of %s could not be evaluated: %v", k, tool, err)
		}
		args[k] = out
	}
	if p.tools == nil {
		return failure("verifier", "verifier %q cannot be called: the policy has no tools", v.Tool)
	}
	res := p.tools.Read(ctx, engine.PurposeVerifier, v.Tool, args)
	if !res.Success {
		return failure("verifier", "the verifier %s could not judge %s: %s", v.Tool, tool, res.Reason)
	}
	verdict, err := ParseVerdict(res.Value)
	if err != nil {
		return failure("verifier", "the verifier %s answered no verdict for %s: %v", v.Tool, tool, err)
	}
	// The verifier's own evidence stays with the evaluator: the acting model
	// gets the status and the reason only.
	verdict.Source, verdict.Evidence = "verifier", "judged by the verifier "+v.Tool
	if verdict.Status == world.VerdictSuccess && verdict.Confidence == 0 {
		verdict.Confidence = 1
	}
	return verdict
}

// ParseVerdict reads a Verdict from a verify tool's result value, where it
// sits under "verdict" (beside the envelope's success, which says only that
// the verifier could judge). A status other than success, failure or process
// is an error.
func ParseVerdict(value map[string]any) (world.Verdict, error) {
	nested, ok := value["verdict"].(map[string]any)
	if !ok {
		return world.Verdict{}, fmt.Errorf(`the result has no "verdict" object`)
	}
	raw, err := json.Marshal(nested)
	if err != nil {
		return world.Verdict{}, fmt.Errorf("encoding the result: %w", err)
	}
	var v world.Verdict
	if err := json.Unmarshal(raw, &v); err != nil {
		return world.Verdict{}, fmt.Errorf("the result is not a verdict: %w", err)
	}
	if !v.Status.Valid() {
		return world.Verdict{}, fmt.Errorf("status is %q, want success, failure or process", v.Status)
	}
	if v.Confidence < 0 || v.Confidence > 1 {
		return world.Verdict{}, fmt.Errorf("confidence %v is outside 0..1", v.Confidence)
	}
	return v, nil
}

// verifyReadsAfter reports whether the verifier's arguments read the
// post-execution observation (then the evidence tool is called first).
func (p *Policy) verifyReadsAfter(tool string) bool {
	for _, prog := range p.spec.Rules.VerifyArgs[tool] {
		if rules.ReadsIdent(prog, "after") {
			return true
		}
	}
	return false
}
