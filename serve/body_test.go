package serve

import (
	"fmt"
	"github.com/thea-harness/thea/runlog"
	"net/http"
	"strings"
	"testing"
)

// Every body is one JSON object with known keys, each once; the refusal
// says what is wrong in words, without Go type names.
func TestStrictJSON(t *testing.T) {
	type confirmBody struct {
		Confirm *bool `json:"confirm"`
	}
	for _, c := range []struct{ body, want string }{
		{`{"confirm": true}`, ""},
		{" \n{\"confirm\": false}\r\n ", ""},
		{`{"confirm": false, "confirm": true}`, `duplicate key "confirm" (at byte 19): each key may appear once`},
		{`{"confirm": true, "confirm": true}`, `duplicate key "confirm"`},
		{`{"confirm": true, "extra": 1}`, `unknown field "extra"`},
		{`{"Confirm": true}`, `unknown field "Confirm"`},
		{`{"confirm": true} {"confirm": false}`, "trailing data after the JSON object"},
		{`{"confirm": true}x`, "trailing data after the JSON object"},
		{`{"confirm": "yes"}`, `field "confirm": want true or false, got a string`},
		{`[true]`, "want a JSON object"},
		{`null`, "want a JSON object"},
		{`"confirm"`, "want a JSON object"},
		{`{"confirm": tru}`, "invalid JSON at byte"},
		{`{"confirm": true`, "invalid JSON at byte"},
		{"{\"confirm\": true, \"\xff\": 1}", "invalid JSON at byte"},
	} {
		var v confirmBody
		err := strictJSON([]byte(c.body), &v)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.body, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q: %v, want %q", c.body, err, c.want)
		case err != nil && strings.Contains(err.Error(), "Go "):
			t.Errorf("%q: %v names Go types", c.body, err)
		}
	}
	var instr struct {
		Instruction string `json:"instruction"`
		N           int    `json:"n"`
	}
	if err := strictJSON([]byte(`{"n": 1.5}`), &instr); err == nil || !strings.Contains(err.Error(), `field "n": want an integer`) {
		t.Errorf("a fraction for an integer: %v", err)
	}
}

// A confirmation whose body gives "confirm" twice is refused with 400 and
// leaves the call unconfirmed: last-one-wins decoding would have confirmed it. The
// same holds for every other endpoint that reads a body.
func TestServeRefusesAmbiguousBodies(t *testing.T) {
	f := start(t, `hooks:
  pre: [{name: ask_first, when: "tool.name == 'notify_user'", action: confirm, prompt: "Tell the user?"}]
`, `
- tool_calls: [{name: notify_user, arguments: {message: "hi"}}]
- text: "Done."
`, Config{})
	for _, body := range []string{`{"instruction": "x", "instruction": "y"}`, `{"instruction": "x", "priority": 1}`, `{"instruction": "x"} {}`} {
		if code, b := f.raw("POST", "/v1/tasks", []byte(body)); code != http.StatusBadRequest {
			t.Errorf("submit %s: %d %s, want 400", body, code, b)
		}
	}
	id := f.submit("Greet")
	s := f.events(id, "")
	q := decodeAs[Pending](t, last(s.until("pending")))
	path := fmt.Sprintf("/v1/confirmations/%d", q.ID)
	for _, c := range []struct{ body, want string }{
		{`{"confirm": false, "confirm": true}`, `duplicate key \"confirm\"`},
		{`{"confirm": true, "comfirm": false}`, `unknown field \"comfirm\"`},
		{`{"confirm": true} {"confirm": false}`, "trailing data"},
		{`{"confirm": true}` + strings.Repeat(" ", maxBody), "larger than"},
	} {
		code, b := f.raw("POST", path, []byte(c.body))
		if (code != http.StatusBadRequest && code != http.StatusRequestEntityTooLarge) || !strings.Contains(string(b), c.want) {
			t.Errorf("confirm %.50s: %d %s, want 400 naming %s", c.body, code, b, c.want)
		}
	}
	for _, body := range []string{`{"answer": "a", "answer": "b"}`, `{"interrupt": false, "interrupt": true}`, `{"instruction": "a", "instruction": "b"}`} {
		for _, p := range []string{fmt.Sprintf("/v1/questions/%d/answer", q.ID), fmt.Sprintf("/v1/tasks/%d/stop", id), fmt.Sprintf("/v1/tasks/%d/revise", id)} {
			if code, b := f.raw("POST", p, []byte(body)); code != http.StatusBadRequest {
				t.Errorf("%s %s: %d %s, want 400", p, body, code, b)
			}
		}
	}
	var st Status
	f.do("GET", "/v1/status", nil, &st)
	if st.State != "running" || len(st.Pending) != 1 || st.Pending[0].ID != q.ID {
		t.Fatalf("a refused body changed the session: %+v", st)
	}
	if code := f.do("POST", path, map[string]bool{"confirm": false}, nil); code != http.StatusOK {
		t.Fatalf("refuse: %d", code)
	}
	for _, m := range s.rest() {
		if m.event == "tool_result" {
			if r := decodeAs[runlog.Event](t, m).Result; r.Success || !strings.Contains(r.Reason, "blocked by hook ask_first") {
				t.Errorf("the call to confirm ran: %+v", r)
			}
		}
	}
}
