package e2e_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/cmd/thea/cli"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/testtime"
)

// The secrets the model spells with JSON escapes: a secret_env token, one
// with a character outside the BMP (a surrogate pair), and a redact match.
const (
	spellToken = "ARMTOKEN-9e8d7c6b5a"
	spellKey   = "clé-🔑-4242-sesame"
)

var spellPattern = regexp.MustCompile(`pw-[0-9]{5,}`)

// spelledArgs are the arguments the model writes: the secrets behind
// escapes (\u0037 for 7, upper- and lower-case hex, a surrogate pair, \/),
// in a valid object, then in a truncated one a provider hands on as text.
var spelledArgs = []string{
	`{"message":"arm code ARMTOKEN-9e8d\u0037c6b5a, key cl\u00E9-\ud83d\uDD11-4242-sesame, pin pw-\u003112345, path \/ok"}`,
	`{"message":"again AR\u004dTOKEN-9e8d7c6b5\u0061 and cl\u00e9-\uD83D\udd11-4242-sesame`,
}

// spellBrain answers decide requests with a tool call per spelled argument
// text, then a final text; nothing else is asked of it.
type spellBrain struct {
	mu sync.Mutex
	n  int
}

func (b *spellBrain) Generate(context.Context, model.Request) (model.Response, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.n++
	if b.n <= len(spelledArgs) {
		return model.Response{ToolCalls: []model.ToolCall{{Name: "notify_user", Arguments: json.RawMessage(spelledArgs[b.n-1])}}}, nil
	}
	return model.Response{Text: "Told the operator."}, nil
}

const spellSpec = `name: spelling
model: {provider: openai, name: e2e-model, base_url: "%s/v1", api_key_env: THEA_SPELL_KEY, max_tokens: 1024, timeout: %s, retries: 0}
embodiment:
  name: kiosk
  cameras: []
  frames: []
  limits: {min_clearance_m: 0.3, safety_margin_m: 0.1}
toolsets:
  core: {kind: builtin}
loop: {stages: [task_notes, observe, compact]}
user: {channel: none}
run_log: {secret_env: [THEA_SPELL_TOKEN, THEA_SPELL_NONASCII], redact: ['pw-[0-9]{5,}']}
`

// A model that writes declared secrets behind JSON escapes in a tool
// call's arguments: no spelling that decodes to a secret is in the run
// log, in --json or in the next model request — every JSON string found
// is decoded (and JSON text inside a string decoded again, leniently when
// it is not valid JSON) and checked.
func TestNoSecretInAnotherSpelling(t *testing.T) {
	t.Setenv("THEA_SPELL_KEY", key)
	t.Setenv("THEA_SPELL_TOKEN", spellToken)
	t.Setenv("THEA_SPELL_NONASCII", spellKey)
	srv, url := serveWire(t, openaiWire(), &spellBrain{})
	work := t.TempDir()
	spec := filepath.Join(work, "spec.yaml")
	must(t, os.WriteFile(spec, fmt.Appendf(nil, spellSpec, url, testtime.Scale(20*time.Second)), 0o600))
	var out, errb bytes.Buffer
	code := cli.Execute(t.Context(), strings.NewReader(""), &out, &errb,
		[]string{"run", "--json", "--spec", spec, "--run-log", filepath.Join(work, "runs"), "tell the operator the codes"})
	if code != 0 {
		t.Fatalf("thea run: exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
	check := func(where, text string) {
		t.Helper()
		if s := spelledLeak(text); s != "" {
			t.Errorf("%s decodes to %q", where, s)
		}
	}
	check("stderr", errb.String())
	sawCall := false
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		check("--json line "+sc.Text(), sc.Text())
		sawCall = sawCall || strings.Contains(sc.Text(), `"model_call"`) && strings.Contains(sc.Text(), "notify_user")
	}
	if !sawCall {
		t.Fatalf("--json has no model_call event with the tool call:\n%s", out.String())
	}
	files := eachFile(t, filepath.Join(work, "runs"), func(p, _ string, b []byte) {
		for i, line := range strings.Split(string(b), "\n") {
			check(fmt.Sprintf("%s:%d", p, i+1), line)
		}
	})
	srv.mu.Lock()
	bodies, purposes := srv.bodies, srv.purposes
	srv.mu.Unlock()
	if len(bodies) < len(spelledArgs)+1 || files == 0 {
		t.Fatalf("%d requests (%v), %d run-log files; want %d decisions", len(bodies), purposes, files, len(spelledArgs)+1)
	}
	for i, b := range bodies {
		check(fmt.Sprintf("request %d", i+1), string(b))
	}
	t.Logf("requests: %v", purposes)
	// The calls are still in the history, redacted, not dropped.
	if last := string(bodies[len(spelledArgs)]); !strings.Contains(last, "[redacted]") || !strings.Contains(last, "notify_user") {
		t.Errorf("the last request lost the calls:\n%s", last)
	}
}

// spelledLeak returns a secret (or pattern match) that text decodes to:
// text itself, every string of it as JSON, and JSON text inside those
// strings (its string literals decoded one by one when it is not valid
// JSON, as a lenient reader would).
func spelledLeak(text string) string {
	for _, s := range decodeAll(text, 0) {
		for _, sec := range []string{spellToken, spellKey} {
			if strings.Contains(s, sec) {
				return sec
			}
		}
		if m := spellPattern.FindString(s); m != "" {
			return m
		}
	}
	return ""
}

var literal = regexp.MustCompile(`"(?:[^"\\]|\\.)*"?`)

func decodeAll(text string, depth int) []string {
	out := []string{text}
	if depth > 4 {
		return out
	}
	var doc any
	if json.Unmarshal([]byte(text), &doc) == nil {
		var walk func(x any)
		walk = func(x any) {
			switch y := x.(type) {
			case string:
				out = append(out, decodeAll(y, depth+1)...)
			case map[string]any:
				for k, v := range y {
					out = append(out, k)
					walk(v)
				}
			case []any:
				for _, v := range y {
					walk(v)
				}
			}
		}
		walk(doc)
		return out
	}
	for _, m := range literal.FindAllString(text, -1) {
		if len(m) == 1 || !strings.HasSuffix(m, `"`) || strings.HasSuffix(m, `\"`) {
			m += `"`
		}
		var s string
		if json.Unmarshal([]byte(m), &s) == nil {
			out = append(out, decodeAll(s, depth+1)...)
		}
	}
	return out
}
