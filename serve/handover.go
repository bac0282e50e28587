package serve

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/redact"
	"github.com/thea-harness/thea/runlog"
)

// An operator takes the robot over and hands it back: POST
// /v1/session/pause ends the running call through the stop path and holds
// the session's loop before its next model request; the operator drives
// the robot with their own teleop; POST /v1/session/resume hands back with
// a note the next request tells the model. Both are events of the task's
// stream and run log, with who and when.

// maxByRunes bounds who a client says it is.
const maxByRunes = 100

// Handed is the answer to POST /v1/session/pause and /v1/session/resume.
type Handed struct {
	Paused   bool            `json:"paused"`
	Handover runlog.Handover `json:"handover"`
}

func (s *Server) handlePause(w http.ResponseWriter, r *http.Request) {
	var body struct {
		By string `json:"by"`
	}
	if !decodeBody(w, r, &body, true) {
		return
	}
	hold, by, ok := s.holdBy(w, body.By)
	if !ok {
		return
	}
	hv, err := hold.Pause(by)
	switch {
	case errors.Is(err, engine.ErrPaused):
		writeError(w, http.StatusConflict, err.Error())
		return
	case errors.Is(err, engine.ErrClosed):
		writeError(w, http.StatusServiceUnavailable, err.Error())
		return
	case err != nil:
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	s.cfg.Logger.Info("an operator paused the session", "by", by, "call", hv.Call)
	s.changed()
	writeJSON(w, http.StatusOK, Handed{Paused: true, Handover: s.redactedHandover(hv)})
}

func (s *Server) handleResume(w http.ResponseWriter, r *http.Request) {
	var body struct {
		By   string  `json:"by"`
		Note *string `json:"note"`
	}
	if !decode(w, r, &body) {
		return
	}
	if body.Note == nil {
		writeError(w, http.StatusBadRequest, `note: required: what the model should know of what you did (where you left the robot, what it holds); "" says you leave none`)
		return
	}
	hold, by, ok := s.holdBy(w, body.By)
	if !ok {
		return
	}
	hv, err := hold.HandBack(by, *body.Note)
	switch {
	case errors.Is(err, engine.ErrNotPaused):
		writeError(w, http.StatusConflict, "the session is not paused: pause it first (POST /v1/session/pause)")
		return
	case err != nil:
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	s.cfg.Logger.Info("an operator handed the session back", "by", by, "paused_ms", hv.PausedMS)
	s.changed()
	writeJSON(w, http.StatusOK, Handed{Paused: false, Handover: s.redactedHandover(hv)})
}

// handoverBy is who a request says it is; "api" when it says nothing.
func handoverBy(w http.ResponseWriter, by string) (string, bool) {
	by = strings.TrimSpace(by)
	switch {
	case by == "":
		return "api", true
	case len([]rune(by)) > maxByRunes:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("by: at most %d characters", maxByRunes))
		return "", false
	case strings.ContainsFunc(by, func(r rune) bool { return r < ' ' || r == 0x7f }):
		writeError(w, http.StatusBadRequest, "by: control characters are not allowed")
		return "", false
	}
	return by, true
}

// holdBy is the session's operator hold and who the request says it is
// (see handoverBy), checked in that order; false when a refusal is written.
func (s *Server) holdBy(w http.ResponseWriter, by string) (engine.OperatorHold, string, bool) {
	by, ok := handoverBy(w, by)
	if !ok {
		return nil, "", false
	}
	s.mu.Lock()
	sess, closing := s.sess, s.closing
	s.mu.Unlock()
	if closing || sess == nil {
		writeError(w, http.StatusServiceUnavailable, errClosing.Error())
		return nil, "", false
	}
	hold, ok := sess.(engine.OperatorHold)
	if !ok {
		writeError(w, http.StatusNotImplemented, "this session cannot be paused")
		return nil, "", false
	}
	return hold, by, true
}

// pausedNow is the pause in effect, for the status; nil when none.
func (s *Server) pausedNow(sess Session) *runlog.Handover {
	hold, ok := sess.(engine.OperatorHold)
	if !ok {
		return nil
	}
	hv, paused := hold.Paused()
	if !paused {
		return nil
	}
	hv = s.redactedHandover(hv)
	return &hv
}

func (s *Server) redactedHandover(hv runlog.Handover) runlog.Handover {
	return redact.Value(s.redactor(), hv)
}

// changed signals a change of the session's state to its stream.
func (s *Server) changed() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.changedLocked()
}

// stopPaused ends a task held by a pause at once: a stop at the next step
// would wait for a hand back that may never come, and nothing moves (the
// pause ended the call through the stop path).
func (s *Server) stopPaused(run *taskRun, cause error) {
	s.mu.Lock()
	sess := s.sess
	s.mu.Unlock()
	if hold, ok := sess.(engine.OperatorHold); ok {
		if _, paused := hold.Paused(); paused {
			run.cancel(cause)
		}
	}
}
