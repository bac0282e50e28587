package sim

import "fmt"

// result is a tool's JSON envelope: {"success": true, ...} or
// {"success": false, "reason": ...}.
type result map[string]any

func ok(fields result) result {
	fields["success"] = true
	return fields
}

func fail(runID, format string, a ...any) result {
	r := result{"success": false, "reason": fmt.Sprintf(format, a...)}
	if runID != "" {
		r["run_id"] = runID
	}
	return r
}
