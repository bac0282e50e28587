package serve

import (
	"fmt"
	"net/http"
	"strings"
)

// After a stop, a crash or a motion given up on, the body's state is
// uncertain: its back-ends refuse physical calls until a well-formed
// observation, or until the operator, having checked the robot, clears it.
// POST /v1/session/clear is that clear (`thea run`'s /clear): refused while
// a task runs or a motion may still run, and on the record as a safety
// event (runlog.SafetyOperatorClear) that opens the next task's stream and
// run log.

// uncertaintyClearer is what the server clears (*engine.Harness).
type uncertaintyClearer interface{ ClearUncertain() int }

// Cleared is the answer to POST /v1/session/clear.
type Cleared struct {
	Cleared int    `json:"cleared"` // toolsets cleared
	Was     string `json:"was"`     // why physical calls were refused
	Toolset string `json:"toolset,omitempty"`
}

// clearRefusal is a 409's body: why not now, and the motions in flight.
type clearRefusal struct {
	Error  string   `json:"error"`
	Task   int      `json:"task,omitempty"`
	Moving []string `json:"moving,omitempty"`
}

func (s *Server) handleClear(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Checked *bool `json:"checked"`
	}
	if !decode(w, r, &body) {
		return
	}
	if body.Checked == nil || !*body.Checked {
		writeError(w, http.StatusBadRequest, `checked: required, and true: clear only once you have checked the robot (it is stopped, and where you expect it)`)
		return
	}
	red := s.redactor()
	// s.mu is held from the checks to the clear, so no task starts (and no
	// motion of this session) in between.
	s.mu.Lock()
	defer s.mu.Unlock()
	sess, cur := s.sess, s.current
	c, ok := sess.(uncertaintyClearer)
	switch {
	case s.closing || sess == nil:
		writeError(w, http.StatusServiceUnavailable, errClosing.Error())
		return
	case cur != nil:
		writeJSON(w, http.StatusConflict, clearRefusal{Error: fmt.Sprintf("task %d is running: clear once it has ended and you have checked the robot", cur.id), Task: cur.id})
		return
	case !ok:
		writeError(w, http.StatusConflict, "this session keeps no body state to clear")
		return
	}
	h := s.live.healthOf(sess, red)
	switch {
	case len(h.Moving) > 0:
		writeJSON(w, http.StatusConflict, clearRefusal{Moving: h.Moving,
			Error: "a motion may still be running: " + strings.Join(h.Moving, "; ") + ". Clear once it has ended (its stop path ends it, or kills its back-end), after checking the robot"})
		return
	case h.Uncertain == "":
		writeError(w, http.StatusConflict, "nothing to clear: the robot's state is certain (physical calls are allowed)")
		return
	}
	n := c.ClearUncertain()
	s.cfg.Logger.Info("the operator cleared the robot's uncertain state", "toolsets", n, "was", h.Uncertain)
	s.changedLocked()
	writeJSON(w, http.StatusOK, Cleared{Cleared: n, Was: h.Uncertain, Toolset: h.UncertainToolset})
}
