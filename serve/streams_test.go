package serve

import (
	"bufio"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
)

// openSSE opens an event stream at path (with headers) and returns it.
func (f *fixture) openSSE(path string, headers map[string]string) *stream {
	f.t.Helper()
	resp := get(f.t, f.base+path, headers)
	f.t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != 200 {
		f.t.Fatalf("GET %s: %d", path, resp.StatusCode)
	}
	s := &stream{t: f.t, body: resp.Body, sc: bufio.NewScanner(resp.Body)}
	s.sc.Buffer(nil, 1<<20)
	return s
}

// A stream resumes after Last-Event-ID, or after last_event_id for a
// client that opens a new one (the header wins); once the task is done and
// nothing follows, 204 tells an EventSource to stop reconnecting; a client
// following another run of the server is told so.
func TestEventStreamResumes(t *testing.T) {
	f := start(t, "", `
- tool_calls: [{name: notify_user, arguments: {message: "one"}}]
- text: "Done."
`, Config{})
	id := f.submit("Go")
	all := f.events(id, "").rest()
	n := len(all)
	path := fmt.Sprintf("/v1/tasks/%d/events", id)
	for _, c := range []struct {
		query   string
		headers map[string]string
		first   int
	}{
		{"?last_event_id=3", nil, 4},
		{"?last_event_id=3", map[string]string{"Last-Event-ID": "5"}, 6},
		{"?instance=" + f.srv.instance + "&last_event_id=1", nil, 2},
	} {
		got := f.openSSE(path+c.query, c.headers).rest()
		if got[0].id != itoa(c.first) || len(got) != n-c.first+1 {
			t.Errorf("%s %v: from id %s, %d events; want from %d, %d", c.query, c.headers, got[0].id, len(got), c.first, n-c.first+1)
		}
	}
	for _, c := range []struct {
		query   string
		headers map[string]string
		want    int
	}{
		{"", map[string]string{"Last-Event-ID": itoa(n)}, http.StatusNoContent},
		{"?last_event_id=" + itoa(n), nil, http.StatusNoContent},
		{"?last_event_id=x", nil, http.StatusBadRequest},
		{"?instance=another-run", nil, http.StatusConflict},
	} {
		resp := get(t, f.base+path+c.query, c.headers)
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("%s %v: %d, want %d", c.query, c.headers, resp.StatusCode, c.want)
		}
	}
}

// The session stream: a status at once, another when a task starts and
// when it ends, and it ends when the server shuts down.
func TestSessionStream(t *testing.T) {
	f := start(t, "", `
- tool_calls: [{name: query_user, arguments: {question: "Go on?"}}]
- text: "Done."
`, Config{})
	s := f.openSSE("/v1/session/events", nil)
	next := func() Status {
		t.Helper()
		m, err := s.next()
		if err != nil || m.event != "status" {
			t.Fatalf("session stream: %+v %v", m, err)
		}
		return decodeAs[Status](t, m)
	}
	if st := next(); st.State != "idle" || st.Instance != f.srv.instance || st.Task != nil {
		t.Errorf("first status: %+v", st)
	}
	id := f.submit("Ask")
	if st := next(); st.State != "running" || st.Task == nil || st.Task.ID != id {
		t.Errorf("status once the task started: %+v", st)
	}
	ev := f.events(id, "")
	q := decodeAs[Pending](t, last(ev.until("pending")))
	if code := f.do("POST", fmt.Sprintf("/v1/questions/%d/answer", q.ID), map[string]string{"answer": "yes"}, nil); code != 200 {
		t.Fatalf("answer: %d", code)
	}
	ev.rest()
	if st := next(); st.State != "idle" || st.Task.State != "done" || st.Task.Report == nil {
		t.Errorf("status once the task ended: %+v", st)
	}
	if code := f.do("POST", "/v1/session/reset", nil, nil); code != 200 {
		t.Fatalf("reset: %d", code)
	}
	next()
	f.cancel()
	if st := next(); st.State != "closing" {
		t.Errorf("status at shutdown: %+v", st)
	}
	if m, err := s.next(); err == nil {
		t.Errorf("the session stream goes on after shutdown: %+v", m)
	}
}

// The task's stream carries its Task Notes and the back-ends' health as
// they change, the status has both, and a physical call holds the body
// lock from its call to its result.
func TestServeNotesAndHealth(t *testing.T) {
	f := startHousehold(t, func(spec string) string {
		return strings.Replace(spec, `consolidation: {enabled: true`, `consolidation: {enabled: false`, 1)
	}, Config{})
	got := f.events(f.submit("Put the mug in the top drawer"), "").rest()
	var notes []engine.TaskNotes
	var held []string
	for _, m := range got {
		switch m.event {
		case "notes":
			notes = append(notes, decodeAs[engine.TaskNotes](t, m))
		case "health":
			h := decodeAs[Health](t, m)
			if h.BodyLock.Mode != "wait" || len(h.Toolsets) != 2 {
				t.Errorf("health: %+v", h)
			}
			if h.BodyLock.Held {
				held = append(held, h.BodyLock.Tool)
			}
		}
	}
	if len(notes) < 3 || notes[0].Goal != "Put the mug in the top drawer" || notes[0].Phase != "starting" {
		t.Fatalf("notes events: %+v", notes)
	}
	lastNotes := notes[len(notes)-1]
	if lastNotes.Phase != "acting" || len(lastNotes.Timeline) < 9 || !strings.Contains(lastNotes.Timeline[0].Text, "Arrived") {
		t.Errorf("the last notes: %+v", lastNotes)
	}
	if strings.Join(held, ",") != "navigate_to,pick_up,move_base,pick_up,navigate_to,open_drawer,place,close_drawer" {
		t.Errorf("the body lock was held by %q", held)
	}
	var st Status
	f.do("GET", "/v1/status", nil, &st)
	if st.Session != "household-sim" || st.Health == nil || st.Health.BodyLock.Held || st.Notes == nil ||
		len(st.Notes.Timeline) != len(lastNotes.Timeline) || len(st.Cameras) != 2 {
		t.Errorf("status: %+v", st)
	}
}

// The run's report page: served once the task is done, with a policy that
// runs nothing; a task without a run log has none.
func TestServeReportPage(t *testing.T) {
	f := startHousehold(t, nil, Config{})
	id := f.submit("Put the mug in the top drawer")
	f.events(id, "").rest()
	var tv TaskView
	f.do("GET", fmt.Sprintf("/v1/tasks/%d", id), nil, &tv)
	if tv.ReportPage != fmt.Sprintf("/v1/tasks/%d/report", id) {
		t.Fatalf("report_page %q", tv.ReportPage)
	}
	resp := get(t, f.base+tv.ReportPage, nil)
	page := readAll(t, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
		resp.Header.Get("Content-Security-Policy") != reportCSP || !strings.Contains(page, `id="turn-10"`) {
		t.Errorf("GET %s: %d %v (%d bytes)", tv.ReportPage, resp.StatusCode, resp.Header, len(page))
	}

	g := start(t, "", "- tool_calls: [{name: query_user, arguments: {question: \"Wait?\"}}]\n- text: done\n", Config{})
	id = g.submit("Wait")
	s := g.events(id, "")
	q := decodeAs[Pending](t, last(s.until("pending")))
	if code, _ := g.raw("GET", fmt.Sprintf("/v1/tasks/%d/report", id), nil); code != http.StatusConflict {
		t.Errorf("the report of a running task: %d, want 409", code)
	}
	g.do("POST", fmt.Sprintf("/v1/questions/%d/answer", q.ID), map[string]string{"answer": "no"}, nil)
	s.rest()
	if code, _ := g.raw("GET", fmt.Sprintf("/v1/tasks/%d/report", id), nil); code != http.StatusNotFound {
		t.Errorf("the report of a task without a run log: %d, want 404", code)
	}
}

// What waits shows what it is about: a question's candidates with their
// Brief line and last view, a confirmation's call, arguments and rule, and
// the cameras' frames when it was asked; a candidate's view is dropped once
// the question is answered.
func TestServePendingShowsWhatItHolds(t *testing.T) {
	f := startHousehold(t, func(spec string) string {
		return strings.NewReplacer(`script:   "episode.yaml"`, `script:   "asks.yaml"`,
			`consolidation: {enabled: true`, `consolidation: {enabled: false`,
			`when:   "false"`, `when:   "tool.name == 'pick_up'"`).Replace(spec)
	}, Config{}, "asks.yaml", `
- tool_calls: [{name: navigate_to, arguments: {target: table}}]
- tool_calls: [{name: query_user, arguments: {question: "This mug?", choices: ["that one"], refs: ["obj:mug"]}}]
- tool_calls: [{name: pick_up, arguments: {object_name: mug}}]
- text: "Done."
`)
	id := f.submit("Fetch the mug")
	s := f.events(id, "")
	q := decodeAs[Pending](t, last(s.until("pending")))
	if len(q.Candidates) != 1 || q.Candidates[0].Ref != "obj:mug" || !strings.Contains(q.Candidates[0].Line, "mug") {
		t.Fatalf("candidates: %+v", q.Candidates)
	}
	view := q.Candidates[0].Image
	if view == nil || view.URL == "" {
		t.Fatalf("the candidate's view: %+v", view)
	}
	if code, _ := f.raw("GET", view.URL, nil); code != 200 {
		t.Errorf("GET %s: %d", view.URL, code)
	}
	if len(q.Frames) != 2 {
		t.Errorf("frames when asked: %+v", q.Frames)
	}
	f.do("POST", fmt.Sprintf("/v1/questions/%d/answer", q.ID), map[string]string{"answer": "that one"}, nil)
	c := decodeAs[Pending](t, last(s.until("pending")))
	if c.Kind != KindConfirm || c.Call == nil || c.Call.Tool != "pick_up" || c.Call.Hook != "confirm_nothing" ||
		fmt.Sprint(c.Call.Args) != "map[object_name:mug]" || len(c.Frames) != 2 || c.Frames[0].URL == "" {
		t.Errorf("the confirmation: %+v", c)
	}
	if code, _ := f.raw("GET", view.URL, nil); code != http.StatusNotFound {
		t.Errorf("the answered question's view: %d, want 404", code)
	}
	var st Status
	f.do("GET", "/v1/status", nil, &st)
	if len(st.Pending) != 1 || st.Pending[0].Call == nil || st.Pending[0].Call.Tool != "pick_up" {
		t.Errorf("status pending: %+v", st.Pending)
	}
	f.do("POST", fmt.Sprintf("/v1/confirmations/%d", c.ID), map[string]bool{"confirm": true}, nil)
	if d := decodeAs[runlog.Event](t, last(s.rest())).Done; d.Reason != runlog.DoneFinal {
		t.Errorf("done: %+v", d)
	}
}
