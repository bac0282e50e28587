package serve

import (
	"fmt"
	"strings"
	"testing"
)

// A declared secret and a redact pattern in the instruction, in a question
// and in the final report never leave the server: not in /v1/status, not in
// /v1/tasks/{id}, not in the event stream, running or done.
func TestServeJSONEndpointsRedact(t *testing.T) {
	const secret, card = "PROBEKEY-5f0c2a9d1e", "4111111111111111"
	t.Setenv("THEA_SERVE_TEST_SECRET", secret)
	spec := strings.Replace(specYAML, "run_log: {enabled: false}",
		`run_log: {enabled: false, secret_env: [THEA_SERVE_TEST_SECRET], redact: ['4111[0-9]{12}']}`, 1)
	f := startSpec(t, spec, fmt.Sprintf(`
- tool_calls: [{name: query_user, arguments: {question: "Use %s on card %s?"}}]
- text: "Opened with %s, paid with %s."
`, secret, card, secret, card), Config{})
	id := f.submit(fmt.Sprintf("open the vault with %s and pay with %s", secret, card))
	s := f.events(id, "")
	got := s.until("pending")
	q := decodeAs[Pending](t, last(got))

	leaks := func(what string, b []byte) {
		t.Helper()
		if strings.Contains(string(b), secret) || strings.Contains(string(b), card) {
			t.Errorf("%s shows a secret:\n%s", what, b)
		}
		if !strings.Contains(string(b), "[redacted]") {
			t.Errorf("%s shows no [redacted] marker:\n%s", what, b)
		}
	}
	for _, p := range []string{"/v1/status", fmt.Sprintf("/v1/tasks/%d", id)} {
		code, b := f.raw("GET", p, nil)
		if code != 200 {
			t.Fatalf("%s: %d %s", p, code, b)
		}
		leaks(p+" while running", b)
	}
	if code := f.do("POST", fmt.Sprintf("/v1/questions/%d/answer", q.ID), map[string]string{"answer": "yes"}, nil); code != 200 {
		t.Fatalf("answer: %d", code)
	}
	for _, m := range append(got, s.rest()...) {
		if strings.Contains(string(m.data), secret) || strings.Contains(string(m.data), card) {
			t.Errorf("the %s event shows a secret: %s", m.event, m.data)
		}
	}
	for _, p := range []string{"/v1/status", fmt.Sprintf("/v1/tasks/%d", id)} {
		_, b := f.raw("GET", p, nil)
		leaks(p+" when done", b)
	}
}
