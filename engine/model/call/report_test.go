package call

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine/model"
)

// A 429 (Retry-After 7) then two 500s then success: three retries are
// reported, in order, each with its attempt, status, wait and the
// provider's message, before the wait is slept.
func TestRetriesAreReported(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) {
		case 1:
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(429)
			_, _ = w.Write([]byte(`{"error":{"message":"Rate limit reached","type":"requests"}}`))
		case 2, 3:
			w.WriteHeader(500)
			_, _ = w.Write([]byte(`{"error":{"message":"The server had an error","type":"server_error"}}`))
		default:
			_, _ = w.Write([]byte(`{}`))
		}
	}))
	defer srv.Close()
	s := &sleeps{}
	var got []model.Retry
	ctx := model.WithRetryReport(t.Context(), func(r model.Retry) {
		if len(s.got) != len(got) {
			t.Errorf("retry %d reported after its wait", len(got)+1)
		}
		got = append(got, r)
	})
	if _, err := post(t, testClient(3, time.Second, s), ctx, srv.URL, "x"); err != nil {
		t.Fatal(err)
	}
	want := []model.Retry{
		{Provider: "prov", Attempt: 1, Status: 429, WaitMS: 7000, RetryAfter: true, Message: "Rate limit reached (requests)"},
		{Provider: "prov", Attempt: 2, Status: 500, WaitMS: s.got[1].Milliseconds(), Message: "The server had an error (server_error)"},
		{Provider: "prov", Attempt: 3, Status: 500, WaitMS: s.got[2].Milliseconds(), Message: "The server had an error (server_error)"},
	}
	if len(got) != len(want) {
		t.Fatalf("reported %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("retry %d: %+v, want %+v", i+1, got[i], want[i])
		}
	}
}

// A 401 names the variable the key came from; a 403 says the key may not
// be allowed the model; without api_key_env the hint says a key is wanted.
func TestKeyErrorsNameTheVariable(t *testing.T) {
	for _, tc := range []struct {
		status int
		keyEnv string
		want   string
	}{
		{401, "OPENAI_API_KEY", "prov: HTTP 401: Incorrect API key provided (invalid_request_error) — check the key in OPENAI_API_KEY (model.api_key_env)"},
		{403, "OPENAI_API_KEY", "prov: HTTP 403: Incorrect API key provided (invalid_request_error) — check that the key in OPENAI_API_KEY (model.api_key_env) may use this model"},
		{401, "", "prov: HTTP 401: Incorrect API key provided (invalid_request_error) — the server wants a key: name the environment variable holding it in model.api_key_env"},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(tc.status)
			_, _ = w.Write([]byte(`{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`))
		}))
		c := testClient(2, time.Second, &sleeps{})
		c.policy.KeyEnv = tc.keyEnv
		_, err := post(t, c, t.Context(), srv.URL, "x")
		srv.Close()
		var e *Error
		if !errors.As(err, &e) || err.Error() != tc.want {
			t.Errorf("err %v\nwant %s", err, tc.want)
		}
	}
}

// The field a 400 blames: OpenAI's error.param, or the path an Anthropic
// message starts with (then not repeated).
func TestBadRequestNamesTheField(t *testing.T) {
	for body, want := range map[string]string{
		`{"error":{"message":"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.","type":"invalid_request_error","param":"max_tokens","code":"unsupported_parameter"}}`: "prov: HTTP 400: Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead. (invalid_request_error)",
		`{"error":{"message":"Invalid 'tools[0].function.name': string does not match pattern.","type":"invalid_request_error","param":"tools[0].function.name"}}`:                                                              "prov: HTTP 400: Invalid 'tools[0].function.name': string does not match pattern. (invalid_request_error)",
		`{"error":{"message":"Invalid value.","type":"invalid_request_error","param":"messages[3].tool_calls"}}`:                                                                                                                "prov: HTTP 400: Invalid value. (invalid_request_error) (field messages[3].tool_calls)",
		`{"type":"error","error":{"type":"invalid_request_error","message":"tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'"}}`:                                                                        "prov: HTTP 400: tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$' (invalid_request_error)",
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(400)
			_, _ = w.Write([]byte(body))
		}))
		_, err := post(t, testClient(2, time.Second, &sleeps{}), t.Context(), srv.URL, "x")
		srv.Close()
		var e *Error
		if !errors.As(err, &e) || err.Error() != want || e.Param == "" {
			t.Errorf("err %v\nwant %s", err, want)
		}
	}
}

func TestLeadingPath(t *testing.T) {
	for in, want := range map[string]string{
		"tools.0.custom.name: String should match": "tools.0.custom.name",
		"messages.1.content.0.tool_use_id: bad":    "messages.1.content.0.tool_use_id",
		"Error: something":                         "",
		"max_tokens: required":                     "",
		"no colon at all":                          "",
	} {
		if got := leadingPath(in); got != want {
			t.Errorf("leadingPath(%q) = %q, want %q", in, got, want)
		}
	}
}
