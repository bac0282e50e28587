package sim

import "github.com/thea-harness/thea/internal/simtools"

// result is a tool's JSON envelope: {"success": true, ...} or
// {"success": false, "reason": ...}.
type result = simtools.Envelope

func ok(fields result) result { return simtools.OK(fields) }

// fail is a failure of the run runID names, when the call got that far.
func fail(runID, format string, a ...any) result {
	r := simtools.Fail(format, a...)
	if runID != "" {
		r["run_id"] = runID
	}
	return r
}
