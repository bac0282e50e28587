package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/thea-harness/thea/runlog"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// raceRounds is how many questions two clients race to answer.
const raceRounds = 200

// raceSpec lets one task ask raceRounds questions in a row: no budget or
// loop check ends it early.
const raceSpec = `safety:
  max_turns: 1000
  failure_budget: {consecutive: 1000, total: 1000}
  loop_detection: {enabled: false}
`

// reply is one racing client's answer from the server.
type reply struct {
	code int
	body map[string]any
}

// raceAnswers posts each body to path from its own client (its own
// connection), all released at once, and returns the replies in order.
func raceAnswers(t *testing.T, f *fixture, path string, bodies ...any) []reply {
	t.Helper()
	reqs := make([]*http.Request, len(bodies))
	clients := make([]*http.Client, len(bodies))
	for i, b := range bodies {
		raw, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		req, err := http.NewRequestWithContext(t.Context(), "POST", f.base+path, bytes.NewReader(raw))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		reqs[i] = req
		clients[i] = &http.Client{Transport: &http.Transport{}}
	}
	out := make([]reply, len(bodies))
	errs := make([]error, len(bodies))
	release := make(chan struct{})
	var wg sync.WaitGroup
	for i := range reqs {
		wg.Go(func() {
			<-release
			resp, err := clients[i].Do(reqs[i])
			if err != nil {
				errs[i] = err
				return
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				errs[i] = err
				return
			}
			out[i].code = resp.StatusCode
			if err := json.Unmarshal(b, &out[i].body); err != nil {
				errs[i] = fmt.Errorf("%d, body not JSON: %w\n%s", resp.StatusCode, err, b)
			}
		})
	}
	close(release)
	wg.Wait()
	for i, c := range clients {
		c.CloseIdleConnections()
		if errs[i] != nil {
			t.Fatalf("client %d: %v", i, errs[i])
		}
	}
	return out
}

// winner checks that exactly one of two replies accepted its answer and
// the other was refused with 409 naming the question as already answered;
// it returns the accepted one's index.
func winner(t *testing.T, round int, r []reply) int {
	t.Helper()
	won := -1
	for i, x := range r {
		if x.code == http.StatusOK && x.body["answered"] == true {
			if won >= 0 {
				t.Fatalf("round %d: both answers were accepted: %+v", round, r)
			}
			won = i
		}
	}
	if won < 0 {
		t.Fatalf("round %d: no answer was accepted: %+v", round, r)
	}
	lost := r[1-won]
	if lost.code != http.StatusConflict || lost.body["outcome"] != "answered" ||
		!strings.Contains(fmt.Sprint(lost.body["error"]), "already answered") {
		t.Fatalf("round %d: the other answer got %d %v, want 409 already answered", round, lost.code, lost.body)
	}
	return won
}

// Two operators answer the same confirmation at the same instant, one
// Allow and one Block: exactly one is told its answer was taken, the other
// is refused and told which was, and the call's fate is the accepted one.
func TestServeConfirmOneAnswer(t *testing.T) {
	var turns strings.Builder
	for i := range raceRounds {
		fmt.Fprintf(&turns, "- tool_calls: [{name: notify_user, arguments: {message: \"m%d\"}}]\n", i)
	}
	turns.WriteString("- text: \"Done.\"\n")
	f := start(t, `hooks:
  pre: [{name: ask_first, when: "tool.name == 'notify_user'", action: confirm, prompt: "Tell the user?"}]
`+raceSpec, turns.String(), Config{})
	s := f.events(f.submit("Greet"), "")
	allowed := 0
	for round := range raceRounds {
		q := decodeAs[Pending](t, last(s.until("pending")))
		r := raceAnswers(t, f, fmt.Sprintf("/v1/confirmations/%d", q.ID), map[string]bool{"confirm": true}, map[string]bool{"confirm": false})
		won := winner(t, round, r)
		allow := won == 0
		if r[1-won].body["confirm"] != allow {
			t.Fatalf("round %d: the refused client was told confirm=%v, but the accepted answer was %v", round, r[1-won].body["confirm"], allow)
		}
		got := s.until("tool_result")
		var resolvedAllow any
		for _, m := range got {
			if m.event == "resolved" {
				resolvedAllow = decodeAs[map[string]any](t, m)["confirm"]
			}
		}
		if resolvedAllow != allow {
			t.Fatalf("round %d: resolved event says confirm=%v, the accepted answer was %v", round, resolvedAllow, allow)
		}
		res := decodeAs[runlog.Event](t, last(got)).Result
		if res.Success != allow || !allow && !strings.Contains(res.Reason, "blocked by hook ask_first") {
			t.Fatalf("round %d: accepted answer allow=%v, but the call's result is %+v", round, allow, res)
		}
		if allow {
			allowed++
		}
		// A late answer is refused the same way.
		var late map[string]any
		if code := f.do("POST", fmt.Sprintf("/v1/confirmations/%d", q.ID), map[string]bool{"confirm": !allow}, &late); code != http.StatusConflict || late["confirm"] != allow {
			t.Fatalf("round %d: late answer: %d %v, want 409 saying confirm=%v", round, code, late, allow)
		}
	}
	if d := decodeAs[runlog.Event](t, last(s.rest())).Done; d.Reason != runlog.DoneFinal {
		t.Errorf("done: %+v", d)
	}
	t.Logf("allowed %d of %d", allowed, raceRounds)
}

// The same for query_user: two answers at once, one taken, and the model
// reads the one that was told it was taken.
func TestServeQuestionOneAnswer(t *testing.T) {
	var turns strings.Builder
	for i := range raceRounds {
		fmt.Fprintf(&turns, "- tool_calls: [{name: query_user, arguments: {question: \"Which mug (%d)?\", choices: [red, blue]}}]\n", i)
	}
	turns.WriteString("- text: \"Done.\"\n")
	f := start(t, raceSpec, turns.String(), Config{})
	s := f.events(f.submit("Fetch mugs"), "")
	answers := []string{"red", "blue"}
	for round := range raceRounds {
		q := decodeAs[Pending](t, last(s.until("pending")))
		r := raceAnswers(t, f, fmt.Sprintf("/v1/questions/%d/answer", q.ID), map[string]string{"answer": "red"}, map[string]string{"answer": "blue"})
		won := winner(t, round, r)
		if r[1-won].body["answer"] != answers[won] {
			t.Fatalf("round %d: the refused client was told %v, the accepted answer was %q", round, r[1-won].body["answer"], answers[won])
		}
		res := decodeAs[runlog.Event](t, last(s.until("tool_result"))).Result
		if !res.Success || fmt.Sprint(res.Value["answer"]) != answers[won] {
			t.Fatalf("round %d: accepted %q, but the model read %+v", round, answers[won], res)
		}
	}
	if d := decodeAs[runlog.Event](t, last(s.rest())).Done; d.Reason != runlog.DoneFinal {
		t.Errorf("done: %+v", d)
	}
}

// An answer after a stop is refused as stopped, not taken; a long answer
// that was taken is not repeated to a later one (only a short one is kept).
func TestServeAnswerAfterSettled(t *testing.T) {
	f := start(t, "", `
- tool_calls: [{name: query_user, arguments: {question: "Which mug?"}}]
- text: "Took it."
- tool_calls: [{name: query_user, arguments: {question: "Which mug now?"}}]
`, Config{})
	id := f.submit("Fetch a mug")
	s := f.events(id, "")
	q := decodeAs[Pending](t, last(s.until("pending")))
	long := strings.Repeat("x", keepAnswerBytes+1)
	if code := f.do("POST", fmt.Sprintf("/v1/questions/%d/answer", q.ID), map[string]string{"answer": long}, nil); code != http.StatusOK {
		t.Fatalf("answer: %d", code)
	}
	var late map[string]any
	if code := f.do("POST", fmt.Sprintf("/v1/questions/%d/answer", q.ID), map[string]string{"answer": "blue"}, &late); code != http.StatusConflict ||
		late["outcome"] != outcomeAnswered || late["answer"] != nil {
		t.Errorf("late answer to a long-answered question: %d %v, want 409 answered without the answer", code, late)
	}
	s.rest()

	id2 := f.submit("Again")
	s2 := f.events(id2, "")
	q2 := decodeAs[Pending](t, last(s2.until("pending")))
	if code := f.do("POST", fmt.Sprintf("/v1/tasks/%d/stop", id2), nil, nil); code != http.StatusAccepted {
		t.Fatalf("stop: %d", code)
	}
	var refused map[string]any
	if code := f.do("POST", fmt.Sprintf("/v1/questions/%d/answer", q2.ID), map[string]string{"answer": "red"}, &refused); code != http.StatusConflict ||
		refused["outcome"] != outcomeStopped || !strings.Contains(fmt.Sprint(refused["error"]), "not taken") {
		t.Errorf("answer after a stop: %d %v, want 409 stopped", code, refused)
	}
	// A confirmation endpoint still may not answer a question, settled or not.
	if code := f.do("POST", fmt.Sprintf("/v1/confirmations/%d", q2.ID), map[string]bool{"confirm": true}, nil); code != http.StatusConflict {
		t.Errorf("confirming a settled query: %d, want 409", code)
	}
	if d := decodeAs[runlog.Event](t, last(s2.rest())).Done; d.Reason != runlog.DoneCancelled {
		t.Errorf("stopped task: %+v", d)
	}
}
