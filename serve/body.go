package serve

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"reflect"
	"strings"
	"time"

	json "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// maxBody bounds a request body: instructions and answers are short.
const maxBody = 64 << 10

// admitted runs once a request has passed the token and browser checks:
// its connection is proven (it leaves the unproven pools), its body is
// read whole, within BodyTimeout and maxBody, and only then is it served
// (no longer a stalled connection a bound may close).
// A client that declares a body and does not send it is answered 408 and
// dropped when the timeout ends.
func (s *Server) admitted(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := connOf(r)
		c.prove()
		if r.ContentLength != 0 { // declared, or chunked (-1)
			b, err := readBody(w, r, s.cfg.BodyTimeout)
			if err != nil {
				var tooBig *http.MaxBytesError
				var ne net.Error
				switch {
				case errors.As(err, &tooBig):
					refuse(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body: larger than %d bytes", maxBody))
				case errors.As(err, &ne) && ne.Timeout():
					refuse(w, http.StatusRequestTimeout, fmt.Sprintf("request body: not received within %s", s.cfg.BodyTimeout))
				default:
					refuse(w, http.StatusBadRequest, "request body: "+err.Error())
				}
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(b))
		}
		c.served()
		next.ServeHTTP(w, r)
	})
}

// readBody reads the whole body under a read deadline, lifted again once
// it is read so a long response (an event stream) is not cut by it.
func readBody(w http.ResponseWriter, r *http.Request, timeout time.Duration) ([]byte, error) {
	rc := http.NewResponseController(w)
	// The error only says the writer is not a connection's (a test
	// recorder): its body is in memory already.
	_ = rc.SetReadDeadline(time.Now().Add(timeout))
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		return nil, err
	}
	_ = rc.SetReadDeadline(time.Time{})
	return b, nil
}

// decode reads a JSON object body strictly (see strictJSON); a refusal is
// a 400 already written.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	return decodeBody(w, r, v, false)
}

// decodeBody is decode; optional accepts an empty body.
func decodeBody(w http.ResponseWriter, r *http.Request, v any, optional bool) bool {
	b, err := io.ReadAll(r.Body) // in memory: admitted read it
	if err == nil && len(bytes.TrimSpace(b)) == 0 {
		if optional {
			return true
		}
		err = errors.New("empty; want a JSON object")
	}
	if err == nil {
		err = strictJSON(b, v)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "request body: "+err.Error())
		return false
	}
	return true
}

// strictJSON decodes one JSON object into v and refuses what a lenient
// decoder lets through: a key given twice (encoding/json keeps the last,
// so {"confirm": false, "confirm": true} would confirm), a key v has no
// field for (a misspelt field is not silently ignored; keys match case
// exactly), anything after the object, and invalid UTF-8.
func strictJSON(b []byte, v any) error {
	dec := jsontext.NewDecoder(bytes.NewReader(b))
	if dec.PeekKind() != '{' {
		if _, err := dec.ReadToken(); err != nil {
			return describeJSON(err)
		}
		return errors.New("want a JSON object")
	}
	if err := dec.SkipValue(); err != nil { // syntax and duplicate keys
		return describeJSON(err)
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return fmt.Errorf("trailing data after the JSON object (at byte %d)", dec.InputOffset())
	}
	// b is now one object and white space.
	return describeJSON(json.Unmarshal(b, v, json.RejectUnknownMembers(true)))
}

// describeJSON turns a decoding error into a sentence about the request,
// without Go type names.
func describeJSON(err error) error {
	if err == nil {
		return nil
	}
	var syn *jsontext.SyntacticError
	var sem *json.SemanticError
	switch {
	case errors.As(err, &syn) && errors.Is(syn.Err, jsontext.ErrDuplicateName):
		return fmt.Errorf("duplicate key %q (at byte %d): each key may appear once", syn.JSONPointer.LastToken(), syn.ByteOffset)
	case errors.As(err, &syn):
		return fmt.Errorf("invalid JSON at byte %d: %v", syn.ByteOffset, syn.Err)
	case errors.As(err, &sem) && errors.Is(sem.Err, json.ErrUnknownName):
		return fmt.Errorf("unknown field %q", sem.JSONPointer.LastToken())
	case errors.As(err, &sem) && sem.GoType != nil:
		return fmt.Errorf("field %q: want %s, got %s", strings.TrimPrefix(string(sem.JSONPointer), "/"), jsonWord(sem.GoType), kindWord(sem.JSONKind))
	}
	return err
}

// jsonWord names the JSON a Go field takes.
func jsonWord(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}

// kindWord names a JSON value's kind.
func kindWord(k jsontext.Kind) string {
	switch k {
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	case '"':
		return "a string"
	case '0':
		return "a number"
	case '[':
		return "an array"
	case '{':
		return "an object"
	}
	return "something else"
}
