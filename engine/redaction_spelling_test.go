package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// htmlSecret has the characters json.Marshal escapes (&, <, >, U+2028):
// the envelope text a tool result becomes spells it \u0026, \u003c, …
const htmlSecret = "p&ss<w>rd\u2028-31337"

// decodesTo reports whether text, or any string a JSON reader decodes from
// it (and from JSON text inside those strings), holds secret.
func decodesTo(text, secret string, depth int) bool {
	if strings.Contains(text, secret) {
		return true
	}
	var doc any
	if depth > 4 || json.Unmarshal([]byte(text), &doc) != nil {
		return false
	}
	var walk func(x any) bool
	walk = func(x any) bool {
		switch y := x.(type) {
		case string:
			return decodesTo(y, secret, depth+1)
		case map[string]any:
			for k, v := range y {
				if strings.Contains(k, secret) || walk(v) {
					return true
				}
			}
		case []any:
			for _, v := range y {
				if walk(v) {
					return true
				}
			}
		}
		return false
	}
	return walk(doc)
}

// A tool result becomes JSON text in the next request, with the escapes
// json.Marshal writes: a secret with & or < in it must not reach the model
// in that spelling.
func TestToolResultTextHoldsNoEscapedSecret(t *testing.T) {
	t.Setenv("THEA_HTML_SECRET", htmlSecret)
	f := newFixture(t, toolResp("", call("vault", `{}`)), toolResp("done"))
	f.spec.RunLog = schema.RunLog{SecretEnv: []string{"THEA_HTML_SECRET"}}
	f.addTool("core", "vault", func(context.Context, map[string]any) runlog.Envelope {
		return runlog.Envelope{Success: true, Value: map[string]any{"code": htmlSecret, "note": "code " + htmlSecret + " <ok>"}}
	})
	h := f.harness(t)
	evs := collect(h.RunStream(t.Context(), "open the vault"))
	if d := evs[len(evs)-1]; d.Kind != runlog.EventDone || d.Done.Reason != runlog.DoneFinal {
		t.Fatalf("ended %+v", d.Done)
	}
	reqs := f.decide.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	b, err := json.Marshal(reqs[1])
	must(t, err)
	if decodesTo(string(b), htmlSecret, 0) {
		t.Fatalf("the second request decodes to the secret:\n%s", b)
	}
	if !strings.Contains(requestText(reqs[1]), "[redacted]") {
		t.Fatalf("the second request shows no marker:\n%s", requestText(reqs[1]))
	}
	for _, ev := range evs {
		b, err := json.Marshal(ev)
		must(t, err)
		if decodesTo(string(b), htmlSecret, 0) {
			t.Errorf("%s event decodes to the secret: %s", ev.Kind, b)
		}
	}
}
