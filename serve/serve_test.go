package serve

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/runlog"
)

// The session over real HTTP: a task parks on query_user, a second task and
// a reset are refused while it runs, a confirmation cannot answer the
// question, the HTTP answer reaches the model, the stream ends with done;
// then reset, a task stopped while it waits, and a next task submitted the
// moment the previous done event is read.
func TestServeTaskLifecycle(t *testing.T) {
	f := start(t, "", `
- tool_calls: [{name: query_user, arguments: {question: "Which mug?", choices: [red, blue]}}]
- text: "Took the red mug."
- tool_calls: [{name: query_user, arguments: {question: "Really?"}}]
- text: "Hello again."
`, Config{})

	id := f.submit("Fetch a mug")
	s := f.events(id, "")
	got := s.until("pending")
	if got[0].event != "task_start" {
		t.Errorf("first event %q, want task_start", got[0].event)
	}
	q := decodeAs[Pending](t, got[len(got)-1])
	if q.Kind != KindQuery || q.Text != "Which mug?" || strings.Join(q.Choices, ",") != "red,blue" {
		t.Fatalf("pending question %+v", q)
	}

	var busy apiError
	if code := f.do("POST", "/v1/tasks", map[string]string{"instruction": "another"}, &busy); code != http.StatusConflict || busy.Task != id {
		t.Errorf("second task while busy: %d %+v, want 409 naming task %d", code, busy, id)
	}
	if code := f.do("POST", "/v1/session/reset", nil, nil); code != http.StatusConflict {
		t.Errorf("reset while busy: %d, want 409", code)
	}
	var st Status
	f.do("GET", "/v1/status", nil, &st)
	if st.State != "running" || len(st.Pending) != 1 || st.Pending[0].ID != q.ID || st.Task == nil || st.Task.ID != id {
		t.Errorf("status while waiting: %+v", st)
	}
	// A confirmation never answers a question.
	if code := f.do("POST", fmt.Sprintf("/v1/confirmations/%d", q.ID), map[string]bool{"confirm": true}, nil); code != http.StatusConflict {
		t.Errorf("confirming a query: %d, want 409", code)
	}
	if code := f.do("POST", fmt.Sprintf("/v1/questions/%d/answer", q.ID), map[string]string{"answer": "red"}, nil); code != http.StatusOK {
		t.Fatalf("answer: %d", code)
	}
	if code := f.do("POST", fmt.Sprintf("/v1/questions/%d/answer", q.ID), map[string]string{"answer": "blue"}, nil); code != http.StatusNotFound && code != http.StatusConflict {
		t.Errorf("second answer: %d, want 404 or 409", code)
	}
	got = s.rest()
	done := decodeAs[runlog.Event](t, got[len(got)-1])
	if done.Done == nil || done.Done.Reason != runlog.DoneFinal || done.Done.Text != "Took the red mug." {
		t.Fatalf("done: %+v", done.Done)
	}
	answered := false
	for _, m := range got {
		if m.event == "tool_result" {
			ev := decodeAs[runlog.Event](t, m)
			answered = ev.Tool == "query_user" && ev.Result.Success && fmt.Sprint(ev.Result.Value["answer"]) == "red"
		}
	}
	if !answered {
		t.Errorf("the model did not get the HTTP answer: %s", names(got))
	}
	// A late reader gets the whole task; Last-Event-ID resumes after an id.
	all := f.events(id, "").rest()
	if all[0].event != "task_start" || all[len(all)-1].event != "done" {
		t.Errorf("replay: %s", names(all))
	}
	if tail := f.events(id, all[len(all)-2].id).rest(); len(tail) != 1 {
		t.Errorf("resume after %s: %s, want only done", all[len(all)-2].id, names(tail))
	}

	if code := f.do("POST", "/v1/session/reset", nil, nil); code != http.StatusOK {
		t.Errorf("reset when idle: %d", code)
	}

	// Stop while the task waits on a person: the question is unparked and
	// the task ends cancelled.
	id2 := f.submit("Do it again")
	s2 := f.events(id2, "")
	s2.until("pending")
	if code := f.do("POST", fmt.Sprintf("/v1/tasks/%d/stop", id), nil, nil); code != http.StatusConflict {
		t.Errorf("stopping a finished task: %d, want 409", code)
	}
	if code := f.do("POST", fmt.Sprintf("/v1/tasks/%d/stop", id2), nil, nil); code != http.StatusAccepted {
		t.Fatalf("stop: %d", code)
	}
	got = s2.rest()
	done = decodeAs[runlog.Event](t, got[len(got)-1])
	if done.Done.Reason != runlog.DoneCancelled || !strings.Contains(done.Done.Text, "should_cancel") {
		t.Errorf("stopped task: %+v", done.Done)
	}
	resolved := false
	for _, m := range got {
		if m.event == "resolved" {
			r := decodeAs[map[string]any](t, m)
			resolved = r["outcome"] == "stopped"
		}
	}
	if !resolved {
		t.Errorf("no resolved/stopped event: %s", names(got))
	}

	// The next task starts the moment done is read: never refused as busy.
	id3 := f.submit("Say hello")
	got = f.events(id3, "").rest()
	if d := decodeAs[runlog.Event](t, got[len(got)-1]).Done; d.Reason != runlog.DoneFinal || d.Text != "Hello again." {
		t.Errorf("third task: %+v", d)
	}
	var tv TaskView
	if code := f.do("GET", fmt.Sprintf("/v1/tasks/%d", id3), nil, &tv); code != 200 || tv.State != "done" || tv.Report == nil {
		t.Errorf("task view: %d %+v", code, tv)
	}
	f.do("GET", "/v1/status", nil, &st)
	if st.State != "idle" || len(st.Pending) != 0 || len(st.Tasks) != 3 {
		t.Errorf("status when idle: %+v", st)
	}
}

// A confirm hook parks as kind "confirm": the query endpoint cannot answer
// it, a refusal blocks the call and the model reads why.
func TestServeConfirm(t *testing.T) {
	f := start(t, `hooks:
  pre: [{name: ask_first, when: "tool.name == 'notify_user'", action: confirm, prompt: "Tell the user?"}]
`, `
- tool_calls: [{name: notify_user, arguments: {message: "hi"}}]
- tool_calls: [{name: notify_user, arguments: {message: "hi again"}}]
- text: "Done."
`, Config{})
	id := f.submit("Greet")
	s := f.events(id, "")
	q := decodeAs[Pending](t, last(s.until("pending")))
	if q.Kind != KindConfirm || q.Text != "Tell the user?" {
		t.Fatalf("pending: %+v", q)
	}
	if code := f.do("POST", fmt.Sprintf("/v1/questions/%d/answer", q.ID), map[string]string{"answer": "yes"}, nil); code != http.StatusConflict {
		t.Errorf("answering a confirmation as a question: %d, want 409", code)
	}
	if code := f.do("POST", fmt.Sprintf("/v1/confirmations/%d", q.ID), map[string]any{}, nil); code != http.StatusBadRequest {
		t.Errorf("confirmation without confirm: %d, want 400", code)
	}
	if code := f.do("POST", fmt.Sprintf("/v1/confirmations/%d", q.ID), map[string]bool{"confirm": false}, nil); code != http.StatusOK {
		t.Fatalf("refuse: %d", code)
	}
	seen := s.until("pending")
	q2 := decodeAs[Pending](t, last(seen))
	if code := f.do("POST", fmt.Sprintf("/v1/confirmations/%d", q2.ID), map[string]bool{"confirm": true}, nil); code != http.StatusOK {
		t.Fatalf("confirm: %d", code)
	}
	var results []string
	for _, m := range append(seen, s.rest()...) {
		if m.event == "tool_result" {
			ev := decodeAs[runlog.Event](t, m)
			results = append(results, fmt.Sprintf("%v %s", ev.Result.Success, ev.Result.Reason))
		}
	}
	if len(results) != 2 || !strings.HasPrefix(results[0], "false blocked by hook ask_first") || results[1] != "true " {
		t.Errorf("results: %q, want the refused call blocked and the confirmed one run", results)
	}
}

// A revision sent while the task waits reaches it at its next poll.
func TestServeRevise(t *testing.T) {
	f := start(t, "", `
- tool_calls: [{name: query_user, arguments: {question: "Which room?"}}]
- text: "Going to the kitchen."
`, Config{})
	id := f.submit("Go to the bedroom")
	s := f.events(id, "")
	q := decodeAs[Pending](t, last(s.until("pending")))
	if code := f.do("POST", fmt.Sprintf("/v1/tasks/%d/revise", id), map[string]string{"instruction": "Go to the kitchen instead"}, nil); code != http.StatusAccepted {
		t.Fatalf("revise: %d", code)
	}
	if code := f.do("POST", fmt.Sprintf("/v1/tasks/%d/revise", id), map[string]string{"instruction": ""}, nil); code != http.StatusBadRequest {
		t.Errorf("empty revision: %d, want 400", code)
	}
	f.do("POST", fmt.Sprintf("/v1/questions/%d/answer", q.ID), map[string]string{"answer": "kitchen"}, nil)
	replan := ""
	for _, m := range s.rest() {
		if m.event == "replan" {
			replan = decodeAs[runlog.Event](t, m).Text
		}
	}
	if !strings.Contains(replan, "Go to the kitchen instead") {
		t.Errorf("replan event %q, want the revised instruction", replan)
	}
}

// Cancelling Serve's context stops the waiting task (its readers get done),
// closes the session once and returns.
func TestServeShutdown(t *testing.T) {
	f := start(t, "", `
- tool_calls: [{name: query_user, arguments: {question: "Anyone there?"}}]
`, Config{})
	id := f.submit("Wait for a person")
	s := f.events(id, "")
	s.until("pending")
	f.cancel()
	got := s.rest()
	if d := decodeAs[runlog.Event](t, last(got)).Done; d.Reason != runlog.DoneCancelled {
		t.Errorf("done after shutdown: %+v", d)
	}
	if err := <-f.served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	f.served <- nil // for the cleanup
	if n := f.sess.closed.Load(); n != 1 {
		t.Errorf("session closed %d times, want 1", n)
	}
}

// Bad requests get a clear 4xx, never a task.
func TestServeBadRequests(t *testing.T) {
	f := start(t, "", "- text: unused\n", Config{})
	for _, c := range []struct {
		method, path string
		body         any
		want         int
	}{
		{"POST", "/v1/tasks", map[string]string{"instruction": "  "}, 400},
		{"POST", "/v1/tasks", map[string]string{"instrucion": "typo"}, 400},
		{"GET", "/v1/tasks/7", nil, 404},
		{"GET", "/v1/tasks/x/events", nil, 400},
		{"POST", "/v1/tasks/1/stop", nil, 404},
		{"POST", "/v1/questions/3/answer", map[string]string{"answer": "a"}, 404},
		{"POST", "/v1/questions/3/answer", map[string]any{}, 400},
		{"GET", "/v1/tasks", nil, 405},
		{"GET", "/nope", nil, 404},
	} {
		if code := f.do(c.method, c.path, c.body, nil); code != c.want {
			t.Errorf("%s %s %v: %d, want %d", c.method, c.path, c.body, code, c.want)
		}
	}
	var st Status
	f.do("GET", "/v1/status", nil, &st)
	if st.State != "idle" || len(st.Tasks) != 0 {
		t.Errorf("a bad request started something: %+v", st)
	}
}

func last(ms []sseMsg) sseMsg { return ms[len(ms)-1] }

// Stop with interrupt while a back-end's motion runs: the cancellation
// reaches the MCP subprocess (it records it), the call fails as cancelled
// and the task ends cancelled; the session then takes the next task.
func TestServeStopInterruptsRunningTool(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	marker, started := filepath.Join(tmp, "cancelled"), filepath.Join(tmp, "started")
	f := start(t, fmt.Sprintf(`  base:
    kind: mcp
    command: [%q]
    env: {%s: "1", %s: %q, %s: %q}
    stop: {tool: stop}
tools: {drive: {physical: true}, stop: {hidden: true}}
`, exe, slowServerEnv, markerEnv, marker, startedEnv, started), `
- tool_calls: [{name: drive, arguments: {}}]
- text: "Stopped."
`, Config{})
	id, s := f.driving(started)
	f.stopTask(id, true)
	got := s.rest()
	var result *runlog.Envelope
	for _, m := range got {
		if m.event == "tool_result" {
			result = decodeAs[runlog.Event](t, m).Result
		}
	}
	if result == nil || result.Success || !strings.Contains(result.Reason, "drive was cancelled") {
		t.Errorf("the interrupted call's result: %+v", result)
	}
	if d := decodeAs[runlog.Event](t, last(got)).Done; d.Reason != runlog.DoneCancelled {
		t.Errorf("done: %+v", d)
	}
	// The subprocess records the cancellation on its own schedule.
	waitFile(t, marker)
}

// waitFile waits for a file a subprocess writes; the bound (scaled, for a
// loaded machine) only keeps a broken test from hanging.
func waitFile(t *testing.T, path string) {
	t.Helper()
	testtime.Wait(t, path+" appearing (the MCP server getting that far)", func() bool {
		_, err := os.Stat(path)
		return err == nil
	})
}

// Nobody answers within the spec's user.timeout: the question resolves as
// unanswered and the model is told so.
func TestServeQuestionTimeout(t *testing.T) {
	spec := strings.Replace(specYAML, "user: {channel: none}", `user: {channel: none, timeout: "20ms"}`, 1)
	f := startSpec(t, spec, `
- tool_calls: [{name: query_user, arguments: {question: "Anyone?"}}]
- text: "Nobody answered."
`, Config{})
	got := f.events(f.submit("Ask"), "").rest()
	outcome, reason := "", ""
	for _, m := range got {
		switch m.event {
		case "resolved":
			outcome = fmt.Sprint(decodeAs[map[string]any](t, m)["outcome"])
		case "tool_result":
			reason = decodeAs[runlog.Event](t, m).Result.Reason
		}
	}
	if outcome != "unanswered" || !strings.Contains(reason, "no answer within user.timeout") {
		t.Errorf("outcome %q, result %q; want unanswered and the timeout named", outcome, reason)
	}
}
