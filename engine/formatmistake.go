package engine

// formatNote tells the model that a malformed call counts against its own
// budget (failure_budget.format), not against the failures of calls that ran.
const formatNote = " (this call did not run: it counts against the budget for malformed calls, not against failed actions)"
