package engine

import (
	"fmt"
	"maps"
	"slices"

	"github.com/thea-harness/thea/schema"
)

// Declared is what a transport declares of one of its tools, whatever the
// spec's contract says (the body layer reads it from BackendProfile).
type Declared struct {
	// Physical: the transport runs the tool as a motion (a rosbridge action
	// or publish not declared otherwise).
	Physical bool
	// Stop names how a motion of the tool is stopped before the kill (the
	// profile's StopPath); "" when the kind has none.
	Stop string
}

// EffectiveContract is a tool's one contract for a session: the spec's,
// with what the transport declares merged in. A tool is physical when the
// spec or the transport says so, so a motion never runs as a plain call.
// It is decided once, when a toolset lists its tools: the body layer runs
// the call with it and the session's registry holds the same value, which
// hooks (tool.physical), effects, the operator view and the call path read.
func EffectiveContract(spec schema.ToolContract, d Declared) schema.ToolContract {
	spec.Physical = spec.Physical || d.Physical
	return spec
}

// ContractedTool is a tool built with its effective contract (the body
// layer's tools): the session registers that value rather than deciding
// again.
type ContractedTool interface {
	Tool
	Contract() schema.ToolContract
	Declared() Declared
}

// ContractOf returns the effective contract a started tool runs with (the
// one its transport's toolset was built with, through the tool guard) and
// what its transport declared; a tool no transport declares anything of (an
// in-process tool) runs with spec, the spec's contract. The session and
// `thea validate --live` read a tool's contract here.
func ContractOf(t Tool, spec schema.ToolContract) (schema.ToolContract, Declared) {
	if g, ok := t.(*guarded); ok {
		t = g.inner
	}
	if ct, ok := t.(ContractedTool); ok {
		return ct.Contract(), ct.Declared()
	}
	return EffectiveContract(spec, Declared{}), Declared{}
}

// ReadRef is a spec field naming a tool the harness reads for itself.
type ReadRef struct {
	Path, Ref string
	Purpose   Purpose
}

// ReadRefs lists the spec's reads: the observation, the safety readings,
// the evaluator's evidence, the episodes' reset tool and each contract's
// verifier. Each must name a
// tool whose effective contract is not physical (CheckRead).
func ReadRefs(s *schema.Spec) []ReadRef {
	var refs []ReadRef
	add := func(path, ref string, p Purpose) {
		if ref != "" {
			refs = append(refs, ReadRef{Path: path, Ref: ref, Purpose: p})
		}
	}
	add("observation.tool", s.Observation.Tool, PurposeObservation)
	add("safety.clearance_tool", s.Safety.ClearanceTool, PurposeReading)
	if rd := s.Safety.Readings; rd != nil {
		add("safety.readings.tool", rd.Tool, PurposeReading)
	}
	add("evaluator.evidence", s.Evaluator.Evidence, PurposeEvidence)
	add("episodes.reset.tool", s.Episodes.ResetTool(), PurposeReset)
	for _, name := range slices.Sorted(maps.Keys(s.Tools)) {
		if v := s.Tools[name].Verify; v != nil {
			add("tools."+name+".verify.tool", v.Tool, PurposeVerifier)
		}
	}
	return refs
}

// CheckRead says why r may not name a tool with contract c ("" when it
// may): the harness's reads run outside the hook chain, so they never
// reach a tool that can move the robot.
func CheckRead(r ReadRef, c schema.ToolContract) string {
	if !c.Physical {
		return ""
	}
	return fmt.Sprintf("%q is physical (it can move the robot), but the harness calls its %s tool outside the hook chain: name a tool that only reads", r.Ref, r.Purpose)
}

// ContractConflict reports where s contradicts what the transport declares
// of toolset's tool: `physical: false` written for a tool the transport runs
// as a motion. The transport wins (a motion is physical whatever the spec
// says), so this is a warning at the spec path; path is "" when nothing
// conflicts. The CUE default (physical not written) is no conflict.
func ContractConflict(s *schema.Spec, toolset, tool string, d Declared) (path, msg string) {
	if s == nil || !d.Physical {
		return "", ""
	}
	key := tool
	if _, ok := s.Tools[key]; !ok {
		key = toolset + "." + tool
	}
	c, ok := s.Tools[key]
	path = "tools." + key + ".physical"
	if !ok || c.Physical || !s.Written(path) {
		return "", ""
	}
	return path, fmt.Sprintf("the %s toolset runs %s as a motion (its transport declares it physical), so it is physical whatever this says: hooks testing tool.physical, the body layer's motion lock and its stop path all apply; to run it as a plain call, declare it not physical where the toolset declares the tool (rosbridge: physical: false beside its action or publish)",
		toolset, tool)
}
