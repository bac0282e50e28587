package policies

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/world"
)

// judgeInstructions is the evaluator model's system prompt. It asks for a
// verdict on the evidence only.
const judgeInstructions = `You judge whether one robot action achieved its post-condition.
You get the tool's name, its arguments, the post-condition and the observation taken after the action (text and camera images).
Judge only from this evidence. Answer with one JSON object and nothing else:
{"status": "success" | "failure" | "process", "reason": "...", "evidence": "...", "confidence": 0.0-1.0}
"process" means the action is under way and another segment of the same action should follow.
A failure needs a non-empty reason the robot can act on. Do not quote the post-condition.`

// askModel asks the evaluator model for a verdict. The request holds only
// the tool name, the arguments, the post-condition and the evidence.
func (p *Policy) askModel(ctx context.Context, name string, args map[string]any, postCondition string, after world.Observation) world.Verdict {
	if p.evaluator == nil {
		return failure("evaluator", "no evaluator model is configured to judge %s", name)
	}
	if strings.TrimSpace(postCondition) == "" {
		return failure("evaluator", "%s has no post-condition to judge", name)
	}
	argsJSON, err := json.Marshal(args)
	if err != nil {
		return failure("evaluator", "arguments of %s cannot be encoded: %v", name, err)
	}
	obsJSON, err := json.Marshal(after)
	if err != nil {
		return failure("evaluator", "evidence for %s cannot be encoded: %v", name, err)
	}
	text := fmt.Sprintf("Tool: %s\nArguments: %s\nPost-condition: %s\nObservation after the action: %s",
		name, argsJSON, postCondition, obsJSON)
	parts := []model.Part{{Text: text}}
	for i := range after.Images {
		img := after.Images[i]
		parts = append(parts, model.Part{Text: model.ImageLabel(&img)}, model.Part{Image: &img})
	}
	resp, err := p.evaluator.Generate(ctx, model.Request{
		Purpose: model.PurposeEvaluate,
		Messages: []model.Message{
			{Role: model.RoleSystem, Parts: []model.Part{{Text: judgeInstructions}}},
			{Role: model.RoleUser, Parts: parts},
		},
	})
	if err != nil {
		return failure("evaluator", "the evaluator model failed: %v", err)
	}
	return parseVerdict(resp.Text)
}

// parseVerdict reads the model's JSON verdict leniently (code fences and
// surrounding prose are ignored) and fails closed on anything malformed.
func parseVerdict(text string) world.Verdict {
	s := strings.TrimSpace(text)
	start, end := strings.Index(s, "{"), strings.LastIndex(s, "}")
	if start < 0 || end < start {
		return failure("model", "malformed verdict: no JSON object in the evaluator's answer")
	}
	var raw struct {
		Status     string   `json:"status"`
		Reason     string   `json:"reason"`
		Evidence   string   `json:"evidence"`
		Confidence *float64 `json:"confidence"`
	}
	if err := json.Unmarshal([]byte(s[start:end+1]), &raw); err != nil {
		return failure("model", "malformed verdict: %v", err)
	}
	v := world.Verdict{
		Status:   world.VerdictStatus(strings.ToLower(strings.TrimSpace(raw.Status))),
		Reason:   strings.TrimSpace(raw.Reason),
		Evidence: strings.TrimSpace(raw.Evidence),
		Source:   "model",
	}
	if raw.Confidence != nil {
		v.Confidence = *raw.Confidence
	}
	switch {
	case !v.Status.Valid():
		return failure("model", "malformed verdict: status %q is not success, failure or process", raw.Status)
	case math.IsNaN(v.Confidence) || v.Confidence < 0 || v.Confidence > 1:
		return failure("model", "malformed verdict: confidence %v is outside 0..1", v.Confidence)
	case v.Status == world.VerdictFailure && v.Reason == "":
		v.Reason = "the evaluator judged a failure but gave no reason"
	}
	return v
}
