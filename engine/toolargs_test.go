package engine

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// A tool's name only labels its schema: names a URL would misread ("#", "%",
// "?") compile like any other and still validate arguments.
func TestCompileSchemaOddToolNames(t *testing.T) {
	for _, name := range []string{"grip#2", "p%zz", "a?b", "a b", "nav/to"} {
		sch, _, err := compileSchema(name, json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`))
		if err != nil {
			t.Errorf("%q: %v", name, err)
			continue
		}
		if err := sch.Validate(map[string]any{"x": 1.0}); err == nil || !strings.Contains(err.Error(), "string") {
			t.Errorf("%q: schema does not validate: %v", name, err)
		}
	}
}

// TestCompileSchemaRefusesEveryScheme: no scheme reaches a loader — an HTTP
// server named in a $ref is never asked.
func TestCompileSchemaRefusesEveryScheme(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte(`{"enum":["LOCAL-FILE-CONTENT"]}`))
	}))
	defer srv.Close()
	for _, ref := range []string{srv.URL + "/s.json", "file:///etc/passwd", "/dev/stdin", "other.json",
		"urn:x:y", "data:application/json,{}", "ftp://example.invalid/s.json"} {
		raw := `{"type":"object","properties":{"a":{"$ref":` + strconv.Quote(ref) + `}}}`
		_, _, err := compileSchema("t", json.RawMessage(raw))
		if !errors.Is(err, ErrToolUnavailable) {
			t.Errorf("$ref %s: err %v, want ErrToolUnavailable", ref, err)
		}
	}
	// An $id that moves the base to file:// does not open a way either.
	raw := `{"$id":"file:///etc/","type":"object","properties":{"a":{"$ref":"passwd"}}}`
	if _, _, err := compileSchema("t", json.RawMessage(raw)); !errors.Is(err, ErrToolUnavailable) {
		t.Errorf("$id file base: err %v", err)
	}
	if hits.Load() != 0 {
		t.Errorf("the HTTP server was asked %d times", hits.Load())
	}
}
