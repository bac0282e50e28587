package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/thea-harness/thea/engine/redact"
)

// handleSessionEvents streams the session's status as Server-Sent Events:
// one `status` message at once, then one each time a task starts or ends
// or the session resets, so a page learns of a task another client
// submitted. Each message is the whole status, not a change: a client that
// reconnects needs no Last-Event-ID. The stream ends when the server shuts
// down.
func (s *Server) handleSessionEvents(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	_ = rc.SetWriteDeadline(time.Time{}) // see handleEvents
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	if _, err := fmt.Fprintf(w, "retry: %d\n\n", reconnectMS); err != nil {
		return
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		changed := s.stateSignal()
		st := redact.Value(s.redactor(), s.status())
		b, err := json.Marshal(st)
		if err != nil {
			b, _ = json.Marshal(map[string]string{"error": "encoding the status: " + err.Error()})
		}
		if _, err := fmt.Fprintf(w, "event: status\ndata: %s\n\n", b); err != nil {
			return
		}
		if err := rc.Flush(); err != nil {
			return
		}
		if st.State == "closing" {
			return
		}
		wait := true
		for wait {
			select {
			case <-changed:
				wait = false
			case <-tick.C:
				if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
					return
				}
				if err := rc.Flush(); err != nil {
					return
				}
			case <-r.Context().Done():
				return
			}
		}
	}
}
