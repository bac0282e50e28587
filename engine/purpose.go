package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/thea-harness/thea/internal/anyjson"
	"github.com/thea-harness/thea/runlog"
)

// Purpose is why a tool is called. Every call of a session takes one path
// (Harness.call) with its purpose: the model's decision and an operator's
// call go through the hook chain; the harness's own reads (the
// observation, a safety reading, evidence, a verifier) only reach tools
// whose effective contract is not physical, checked at start
// (checkReads) and again at each call.
type Purpose uint8

const (
	// PurposeDecision is the model's call, through the whole chain.
	PurposeDecision Purpose = iota
	// PurposeOperator is a call an operator or an MCP client asks for,
	// through the whole chain.
	PurposeOperator
	// PurposeStage is a context stage's own call (Turn.CallTool): through
	// the whole chain when the tool is physical, a read otherwise.
	PurposeStage
	// PurposeObservation is the observation tool (observation.tool).
	PurposeObservation
	// PurposeReading is a safety reading a pre-hook takes
	// (safety.clearance_tool, safety.readings.tool).
	PurposeReading
	// PurposeEvidence is the evaluator's post-execution observation
	// (evaluator.evidence).
	PurposeEvidence
	// PurposeVerifier is a contract's verifier (tools.<name>.verify.tool).
	PurposeVerifier
)

func (p Purpose) String() string {
	switch p {
	case PurposeDecision:
		return "decision"
	case PurposeOperator:
		return "operator"
	case PurposeStage:
		return "stage"
	case PurposeObservation:
		return "observation"
	case PurposeReading:
		return "reading"
	case PurposeEvidence:
		return "evidence"
	case PurposeVerifier:
		return "verifier"
	case PurposeReset:
		return "reset"
	}
	return fmt.Sprintf("purpose(%d)", uint8(p))
}

// IsRead reports whether a call of purpose p may run without the hook
// chain, which it may only on a tool that is not physical: the harness's
// own reads and a stage's call. The model's and an operator's never do.
func (p Purpose) IsRead() bool {
	return p >= PurposeStage && p <= PurposeReset
}

// ToolReader is what a policy may call of the session's tools: reads
// (safety readings, evidence, verifiers) of tools that do not move the
// robot. A read of a physical tool, or a purpose that is not a read, fails
// without running anything.
type ToolReader interface {
	Read(ctx context.Context, purpose Purpose, name string, args map[string]any) runlog.Envelope
}

// reader is the session's ToolReader: Harness.read, nothing else of the
// Harness.
type reader struct{ h *Harness }

var _ ToolReader = reader{}

func (r reader) Read(ctx context.Context, purpose Purpose, name string, args map[string]any) runlog.Envelope {
	return r.h.read(ctx, purpose, name, args)
}

// read calls a registered tool for one of the harness's own reads. It
// never raises: an unknown tool, a physical one, a purpose that is not a
// read or unencodable arguments come back as a failure envelope, and the
// tool does not run.
func (h *Harness) read(ctx context.Context, purpose Purpose, name string, args map[string]any) runlog.Envelope {
	rt, ok := h.tools.lookup(name)
	if !ok {
		return runlog.Failure(fmt.Sprintf("unknown tool %q; known tools: %s", name, strings.Join(h.tools.names, ", ")))
	}
	if why := refuseRead(purpose, name, rt); why != "" {
		return runlog.Failure(why)
	}
	if args == nil {
		args = map[string]any{}
	}
	raw, err := anyjson.Marshal(args)
	if err != nil {
		return runlog.Failure(fmt.Sprintf("arguments for %s cannot be encoded: %v", name, err))
	}
	return h.invoke(ctx, rt, raw)
}

// refuseRead says why a read of rt for purpose must not run; "" when it
// may. It fails closed: a physical tool is never read, whatever asked.
func refuseRead(purpose Purpose, name string, rt *RegisteredTool) string {
	if !purpose.IsRead() {
		return fmt.Sprintf("%s did not run: a %s call goes through the hook chain, not the harness's reads", name, purpose)
	}
	if rt.Contract.Physical {
		return fmt.Sprintf("%s did not run: it is physical (it can move the robot), and the harness reads (%s) only tools that cannot", name, purpose)
	}
	return ""
}
