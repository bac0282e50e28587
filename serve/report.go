package serve

import (
	"bytes"
	"fmt"
	"net/http"

	"github.com/thea-harness/thea/report"
)

// reportCSP is the policy of `thea report`'s page: its images are inline,
// its style is inline, nothing runs and nothing is fetched (the page says
// so itself too).
const reportCSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// handleReport serves `thea report`'s page of a finished task, built from
// its run directory on each request (the run log is the record).
func (s *Server) handleReport(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	run, ok := s.task(id)
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no task %d (or no longer kept)", id))
		return
	}
	v := run.view()
	switch {
	case v.State != "done":
		writeJSON(w, http.StatusConflict, apiError{Error: fmt.Sprintf("task %d is running: its report comes with its done event", id), Task: id})
		return
	case v.Report == nil || v.Report.RunDir == "":
		writeError(w, http.StatusNotFound, fmt.Sprintf("task %d has no run log (run_log.enabled is false and no --run-log was given)", id))
		return
	}
	var page bytes.Buffer
	if err := report.Write(r.Context(), &page, v.Report.RunDir); err != nil {
		writeError(w, http.StatusInternalServerError, "the run's report: "+s.redactor().String(err.Error()))
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", reportCSP)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "private, no-cache")
	_, _ = page.WriteTo(w) // the client has gone: nothing to tell it
}
