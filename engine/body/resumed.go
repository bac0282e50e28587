package body

// MarkResumed makes the toolset's body uncertain because the session was
// resumed in a new process: what the robot did while no process drove it
// is unknown. A well-formed observation taken from now on clears it, as
// after a crash (the process that moved it is gone, so no motion is
// awaited).
func (ts *Toolset) MarkResumed(reason string) {
	if ts.cfg.OnUncertain == "continue" {
		return
	}
	ts.body.MarkUncertain(ts.scope, reason)
}
