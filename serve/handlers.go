package serve

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/thea-harness/thea/engine/redact"
)

//go:embed openapi.json
var openAPI []byte

// keepAlive is how often an idle event stream gets a comment line, so
// proxies and clients see the connection alive while the model thinks.
const keepAlive = 15 * time.Second

// route is one endpoint; the mux and the OpenAPI test read the same table.
type route struct {
	method, path string
	handle       http.HandlerFunc
}

func (s *Server) routes() []route {
	return []route{
		{"GET", "/openapi.json", s.handleOpenAPI},
		{"GET", "/v1/status", s.handleStatus},
		{"POST", "/v1/tasks", s.handleSubmit},
		{"GET", "/v1/tasks/{id}", s.handleTask},
		{"GET", "/v1/tasks/{id}/events", s.handleEvents},
		{"POST", "/v1/tasks/{id}/revise", s.handleRevise},
		{"POST", "/v1/tasks/{id}/stop", s.handleStop},
		{"POST", "/v1/questions/{id}/answer", s.handleAnswer},
		{"POST", "/v1/confirmations/{id}", s.handleConfirm},
		{"POST", "/v1/session/reset", s.handleReset},
		{"POST", "/v1/session/clear", s.handleClear},
		{"POST", "/v1/session/pause", s.handlePause},
		{"POST", "/v1/session/resume", s.handleResume},
		{"GET", "/v1/session/events", s.handleSessionEvents},
		{"POST", "/v1/auth/cookie", s.handleReadCookie},
		{"GET", "/v1/tasks/{id}/report", s.handleReport},
		{"GET", "/v1/tasks/{id}/events/{event}/images/{n}", s.handleEventImage},
		{"GET", "/v1/questions/{id}/candidates/{n}/image", s.handleCandidateImage},
		{"GET", "/v1/cameras/{camera}/latest", s.handleCameraLatest},
	}
}

// optionalRoute is an endpoint served only when the config turns it on;
// openapi.json describes it beside the others.
type optionalRoute struct {
	method, path string
	handler      http.Handler
}

func (s *Server) optionalRoutes() []optionalRoute {
	var out []optionalRoute
	if s.cfg.Metrics != nil {
		out = append(out, optionalRoute{"GET", "/metrics", s.cfg.Metrics})
	}
	if s.cfg.MCP != nil {
		// The streamable HTTP transport's three methods: a message, the
		// server's stream, the session's end.
		for _, m := range []string{"POST", "GET", "DELETE"} {
			out = append(out, optionalRoute{m, MCPPath, s.cfg.MCP})
		}
	}
	return out
}

// Handler is the server's HTTP handler. The console's files (code, no
// data) are served to anyone who passes the browser checks, so the page can
// ask for the token; for the API the bearer token (when the config has
// one) and the browser checks come first, then the body is read, then the
// endpoint runs.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	for _, r := range s.routes() {
		mux.HandleFunc(r.method+" "+r.path, r.handle)
	}
	for _, r := range s.optionalRoutes() {
		mux.Handle(r.method+" "+r.path, r.handler)
	}
	api := requireToken(s.cfg.Token, s.cookies, browserGuard(s.cfg.Token, s.admitted(mux)))
	top := http.NewServeMux()
	console := browserGuard(s.cfg.Token, consoleHandler())
	top.Handle("GET /{$}", console)
	top.Handle("GET /console/", console)
	top.Handle("GET /favicon.ico", console)
	top.Handle("/", api)
	return isolated(top)
}

// isolated marks every response, refusals included, as readable only by
// pages of the server's own origin: with a token in a same-site cookie, a
// page on the same host at another port could otherwise embed a camera's
// latest frame (an <img> needs no CORS) and watch its size and updates.
// No response is ever sniffed into another type either.
func isolated(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		h.Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v) // the client has gone: nothing to tell it
}

// apiError is every error response's body.
type apiError struct {
	Error string `json:"error"`
	Task  int    `json:"task,omitempty"`
}

func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, apiError{Error: msg})
}

// pathID reads the {id} path value.
func pathID(w http.ResponseWriter, r *http.Request) (int, bool) {
	id, err := strconv.Atoi(r.PathValue("id"))
	if err != nil || id <= 0 {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("id %q: want a positive integer", r.PathValue("id")))
		return 0, false
	}
	return id, true
}

// runningTask finds task {id} and checks that it is the one running.
func (s *Server) runningTask(w http.ResponseWriter, r *http.Request) (*taskRun, bool) {
	id, ok := pathID(w, r)
	if !ok {
		return nil, false
	}
	s.mu.Lock()
	run, known, cur := s.tasks[id], s.tasks[id] != nil, s.current
	s.mu.Unlock()
	switch {
	case !known:
		writeError(w, http.StatusNotFound, fmt.Sprintf("no task %d", id))
		return nil, false
	case run != cur:
		writeJSON(w, http.StatusConflict, apiError{Error: fmt.Sprintf("task %d is not running", id), Task: id})
		return nil, false
	}
	return run, true
}

func (s *Server) handleOpenAPI(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(openAPI)
}

func (s *Server) handleStatus(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, redact.Value(s.redactor(), s.status()))
}

// Submitted is the answer to POST /v1/tasks.
type Submitted struct {
	ID     int    `json:"id"`
	Events string `json:"events"` // the task's SSE stream
	Status string `json:"status"`
}

func (s *Server) handleSubmit(w http.ResponseWriter, r *http.Request) {
	instruction, ok := decodeInstruction(w, r)
	if !ok {
		return
	}
	run, err := s.submit(instruction)
	switch {
	case errors.Is(err, errBusy):
		writeJSON(w, http.StatusConflict, apiError{Error: fmt.Sprintf("task %d is running: one task at a time (stop it, or wait for its done event)", run.id), Task: run.id})
		return
	case errors.Is(err, errHeld):
		writeError(w, http.StatusConflict, err.Error())
		return
	case err != nil:
		writeError(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	w.Header().Set("Location", fmt.Sprintf("/v1/tasks/%d", run.id))
	writeJSON(w, http.StatusAccepted, Submitted{ID: run.id,
		Events: fmt.Sprintf("/v1/tasks/%d/events", run.id), Status: fmt.Sprintf("/v1/tasks/%d", run.id)})
}

func (s *Server) handleTask(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	run, ok := s.task(id)
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no task %d (or no longer kept)", id))
		return
	}
	writeJSON(w, http.StatusOK, redact.Value(s.redactor(), run.view()))
}

// handleEvents streams a task's events as Server-Sent Events from its
// start (or after Last-Event-ID) to its done event.
func (s *Server) handleEvents(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	run, ok := s.task(id)
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no task %d (or no longer kept)", id))
		return
	}
	if v := r.URL.Query().Get("instance"); v != "" && v != s.instance {
		writeError(w, http.StatusConflict, fmt.Sprintf("instance %q: the server restarted (now %q); task %d is another task", v, s.instance, id))
		return
	}
	after, ok := lastEventID(w, r)
	if !ok {
		return
	}
	if evs, _, finished := run.since(after); finished && len(evs) == 0 {
		// Nothing can follow: 204 tells an EventSource not to reconnect.
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	rc := http.NewResponseController(w)
	// The stream outlives any write deadline; the error only says the
	// server has none to lift.
	_ = rc.SetWriteDeadline(time.Time{})
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	// A dropped stream is resumed soon (the browser's default is 3 s).
	if _, err := fmt.Fprintf(w, "retry: %d\n\n", reconnectMS); err != nil {
		return
	}
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		evs, changed, finished := run.since(after)
		for _, ev := range evs {
			if _, err := fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", ev.id, ev.name, ev.data); err != nil {
				return
			}
			after = ev.id
		}
		if err := rc.Flush(); err != nil {
			return
		}
		if finished && len(evs) == 0 {
			return
		}
		if finished {
			continue // read once more: nothing can follow the done event
		}
		select {
		case <-changed:
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
		case <-r.Context().Done():
			return
		}
	}
}

func (s *Server) handleRevise(w http.ResponseWriter, r *http.Request) {
	instruction, ok := decodeInstruction(w, r)
	if !ok {
		return
	}
	run, ok := s.runningTask(w, r)
	if !ok {
		return
	}
	run.revise(instruction)
	writeJSON(w, http.StatusAccepted, map[string]any{"id": run.id, "revised": true})
}

func (s *Server) handleStop(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Interrupt bool `json:"interrupt"`
	}
	if !decodeBody(w, r, &body, true) {
		return
	}
	run, ok := s.runningTask(w, r)
	if !ok {
		return
	}
	s.stopTask(run, body.Interrupt, errStopped)
	writeJSON(w, http.StatusAccepted, map[string]any{"id": run.id, "stopping": true, "interrupt": body.Interrupt})
}

func (s *Server) handleAnswer(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Answer *string `json:"answer"`
	}
	if !decode(w, r, &body) {
		return
	}
	if body.Answer == nil {
		writeError(w, http.StatusBadRequest, "answer: required")
		return
	}
	s.answer(w, r, KindQuery, *body.Answer)
}

func (s *Server) handleConfirm(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Confirm *bool `json:"confirm"`
	}
	if !decode(w, r, &body) {
		return
	}
	if body.Confirm == nil {
		writeError(w, http.StatusBadRequest, "confirm: required (true allows the call, false blocks it)")
		return
	}
	ans := "no"
	if *body.Confirm {
		ans = "yes"
	}
	s.answer(w, r, KindConfirm, ans)
}

func (s *Server) answer(w http.ResponseWriter, r *http.Request, kind, ans string) {
	id, ok := pathID(w, r)
	if !ok {
		return
	}
	var settledErr *alreadySettled
	switch err := s.user.Answer(id, kind, ans); {
	case errors.Is(err, errNotPending):
		writeError(w, http.StatusNotFound, fmt.Sprintf("no pending question %d", id))
	case errors.Is(err, errWrongKind):
		other := "/v1/questions/%d/answer"
		if kind == KindQuery {
			other = "/v1/confirmations/%d"
		}
		writeError(w, http.StatusConflict, fmt.Sprintf("question %d is not a %s: answer it at "+other, id, kind, id))
	case errors.As(err, &settledErr):
		writeJSON(w, http.StatusConflict, s.settledBody(settledErr))
	case err != nil:
		writeError(w, http.StatusInternalServerError, err.Error())
	default:
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "kind": kind, "answered": true})
	}
}

func (s *Server) handleReset(w http.ResponseWriter, _ *http.Request) {
	switch err := s.reset(); {
	case errors.Is(err, errBusy):
		writeError(w, http.StatusConflict, "a task is running: reset the session when it is idle")
	case errors.Is(err, errClosing):
		writeError(w, http.StatusServiceUnavailable, err.Error())
	case err != nil:
		writeError(w, http.StatusInternalServerError, err.Error())
	default:
		writeJSON(w, http.StatusOK, map[string]any{"reset": true})
	}
}

// decodeInstruction reads a {"instruction": TEXT} body; an empty one is a
// 400 already written.
func decodeInstruction(w http.ResponseWriter, r *http.Request) (string, bool) {
	var body struct {
		Instruction string `json:"instruction"`
	}
	if !decode(w, r, &body) {
		return "", false
	}
	if strings.TrimSpace(body.Instruction) == "" {
		writeError(w, http.StatusBadRequest, "instruction: must not be empty")
		return "", false
	}
	return body.Instruction, true
}

// reconnectMS is the retry an event stream asks its client to wait before
// reconnecting.
const reconnectMS = 1000

// lastEventID reads where a stream resumes: the Last-Event-ID header (an
// EventSource sends it when it reconnects), else the last_event_id query
// parameter (a client that opens a new stream cannot set headers); 0 reads
// from the start. A bad value is a 400 already written.
func lastEventID(w http.ResponseWriter, r *http.Request) (int, bool) {
	v, from := r.Header.Get("Last-Event-ID"), "Last-Event-ID"
	if v == "" {
		v, from = r.URL.Query().Get("last_event_id"), "last_event_id"
	}
	if v == "" {
		return 0, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("%s %q: want a non-negative integer", from, v))
		return 0, false
	}
	return n, true
}
