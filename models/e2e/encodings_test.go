package e2e_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/thea-harness/thea/cmd/thea/cli"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/internal/testutil"
)

// encodedArg makes the test binary serve encodedBackend over stdio: a real
// MCP subprocess that answers with the secrets it reads from its
// environment, encoded, and with a long base64 payload.
const encodedArg = "encoded-backend"

// encToken is a secret_env value with the characters the encodings treat
// apart (space, "/", "+", "=", "?", "&").
const encToken = "tok/e2e+vault 77aa?&="

// spellings spells b in every encoding the redactor covers, by name.
func spellings(b []byte) map[string]string {
	s := string(b)
	lower := func(p string) string {
		return strings.NewReplacer("%2B", "%2b", "%2F", "%2f", "%3D", "%3d", "%3F", "%3f").Replace(p)
	}
	return map[string]string{
		"b64std": base64.StdEncoding.EncodeToString(b), "b64std_raw": base64.RawStdEncoding.EncodeToString(b),
		"b64url": base64.URLEncoding.EncodeToString(b), "b64url_raw": base64.RawURLEncoding.EncodeToString(b),
		"query": url.QueryEscape(s), "query_lower": lower(url.QueryEscape(s)), "path": url.PathEscape(s),
		"hex": hex.EncodeToString(b), "hex_upper": strings.ToUpper(hex.EncodeToString(b)),
	}
}

// encodedBadge is read_badge's answer: each secret in each spelling, alone
// and inside longer data at byte offsets 1 and 2 (base64 spells the same
// bytes three ways by offset mod 3), and once in a base64 blob the JSON
// text spells with escapes ("\/", "\u0041").
func encodedBadge(secrets map[string]string) string {
	fields := map[string]string{}
	for name, sec := range secrets {
		for off := range 3 {
			data := append(append([]byte("\x00\xfe"[:off]), sec...), "!?"[:off]...)
			for enc, text := range spellings(data) {
				fields[fmt.Sprintf("%s_%s_%d", name, enc, off)] = text
			}
		}
	}
	b, _ := json.Marshal(fields) // strings always encode
	blob := base64.StdEncoding.EncodeToString(append([]byte("\x01"), secrets["token"]...))
	escaped := strings.NewReplacer("/", `\/`, "A", `\u0041`).Replace(blob)
	return strings.TrimSuffix(string(b), "}") + `,"escaped":"` + escaped + `"}`
}

// snapshotPayload is the base64 payload snapshot answers with: 3000
// random bytes, 4000 characters.
func snapshotPayload() string {
	r := rand.New(rand.NewPCG(36, 2))
	b := make([]byte, 3000)
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	return base64.StdEncoding.EncodeToString(b)
}

func encodedBackend() error {
	secrets := map[string]string{"key": os.Getenv("THEA_E2E_KEY"), "token": os.Getenv("THEA_ENC_TOKEN")}
	s := mcpserver.NewMCPServer("badge", "0.0.1")
	s.AddTool(mcp.NewTool("read_badge", mcp.WithDescription("reads the badge's stored credentials"), mcp.WithNumber("n")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(encodedBadge(secrets)), nil
		})
	s.AddTool(mcp.NewTool("snapshot", mcp.WithDescription("a frame of the hall camera, base64"), mcp.WithNumber("n")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(`{"label":"hall","frame":"` + snapshotPayload() + `","exposure":"auto"}`), nil
		})
	if err := mcpserver.ServeStdio(s); err != nil {
		return fmt.Errorf("badge back-end: %w", err)
	}
	return nil
}

const encodedSpec = `name: badge
model: {provider: openai, name: e2e-model, base_url: "%s/v1", api_key_env: THEA_E2E_KEY, max_tokens: 1024, timeout: %s, retries: 0}
embodiment:
  name: kiosk
  cameras: []
  frames: []
  limits: {min_clearance_m: 0.3, safety_margin_m: 0.1}
toolsets:
  core: {kind: builtin}
  badge: {kind: mcp, command: [thea, encoded-backend], env_passthrough: [THEA_E2E_KEY, THEA_ENC_TOKEN],
    timeout: %[2]s, start_timeout: %[2]s}
loop: {stages: [task_notes, observe, compact, decide, execute, record]}
user: {channel: none}
safety: {max_turns: 40}
run_log: {secret_env: [THEA_ENC_TOKEN]}
`

// toolBrain calls tool calls times (with n, 1, 2…), then reports text; any other request
// (a compaction round) gets a short summary.
type toolBrain struct {
	tool  string
	calls int
	text  string
	mu    sync.Mutex
	n     int
}

func (b *toolBrain) Generate(_ context.Context, req model.Request) (model.Response, error) {
	if req.Purpose != model.PurposeDecide {
		return model.Response{Text: "Checkpoint: the camera was read, every frame stored."}, nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.n++
	if b.n <= b.calls { // a different call each time: repeating one is a loop the harness ends
		return model.Response{ToolCalls: []model.ToolCall{{Name: b.tool, Arguments: fmt.Appendf(nil, `{"n":%d}`, b.n)}}}, nil
	}
	return model.Response{Text: b.text}, nil
}

// runEncoded runs `thea run --json` on encodedSpec plus extra against a
// local OpenAI-wire server answering with brain; it returns stdout, stderr,
// the run-log directory, the request bodies and their purposes.
func runEncoded(t *testing.T, brain model.Model, extra string) (string, string, string, [][]byte, []model.Purpose) {
	t.Helper()
	srv, url := serveWire(t, openaiWire(), brain)
	work := t.TempDir()
	spec := filepath.Join(work, "spec.yaml")
	must(t, os.WriteFile(spec, append(fmt.Appendf(nil, encodedSpec, url, testtime.Scale(20*time.Second)), extra...), 0o600))
	runs := filepath.Join(work, "runs")
	var out, errb bytes.Buffer
	code := cli.Execute(t.Context(), strings.NewReader(""), &out, &errb, []string{"run", "--json", "--spec", spec, "--run-log", runs, "read the badge"})
	if code != 0 {
		t.Fatalf("thea run: exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errb.String())
	}
	srv.mu.Lock()
	defer srv.mu.Unlock()
	return out.String(), errb.String(), runs, srv.bodies, srv.purposes
}

// A back-end answers with the API key and a secret_env value base64-encoded
// (standard and URL alphabets, padded or not, at each byte offset),
// percent-encoded (either case, "+" for a space), hex-encoded (either
// case) and inside a base64 blob its JSON spells with escapes, and the
// model's report carries two more spellings: no line of --json or of the
// run log, and no request the provider receives, decodes to a secret
// (every JSON string in them decoded, then every base64, hex and percent
// run decoded independently of the redactor).
func TestNoSecretInAnEncoding(t *testing.T) {
	t.Setenv("THEA_E2E_KEY", key)
	t.Setenv("THEA_ENC_TOKEN", encToken)
	secrets := []string{key, encToken}
	report := "Badge read: " + base64.RawURLEncoding.EncodeToString([]byte(key)) + " and " + hex.EncodeToString([]byte(encToken))
	stdout, stderr, runs, bodies, purposes := runEncoded(t, &toolBrain{tool: "read_badge", calls: 1, text: report}, "")
	check := func(where, text string) {
		t.Helper()
		for _, s := range decodeAll(text, 0) {
			if sec, how := testutil.EncodedSecret(s, secrets); sec != "" {
				t.Errorf("%s decodes (%s) to %q: %.300s", where, how, sec, s)
				return
			}
		}
	}
	check("stderr", stderr)
	sawResult := false
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		check("--json line", sc.Text())
		sawResult = sawResult || strings.Contains(sc.Text(), `"tool_result"`) && strings.Contains(sc.Text(), "token_b64url_raw_2")
	}
	if !sawResult {
		t.Fatalf("--json has no read_badge result:\n%.2000s", stdout)
	}
	files := eachFile(t, runs, func(p, _ string, b []byte) {
		for i, line := range strings.Split(string(b), "\n") {
			check(fmt.Sprintf("%s:%d", p, i+1), line)
		}
	})
	if len(bodies) < 2 || files == 0 {
		t.Fatalf("%d requests, %d run-log files", len(bodies), files)
	}
	for i, b := range bodies {
		check(fmt.Sprintf("request %d", i+1), string(b))
	}
	// The result reached the model, redacted field by field, not dropped.
	if purposes[1] != model.PurposeDecide {
		t.Fatalf("request purposes %v: want the second a decision", purposes)
	}
	if last := string(bodies[1]); !strings.Contains(last, `escaped\":\"AX[redacted]`) || !strings.Contains(last, `key_b64std_1\":\"AH[redacted]`) {
		t.Errorf("the last request lacks the redacted result:\n%s", last)
	}
}

// A tool result carrying a 4000-character base64 payload, over a
// tool_result_max_chars of 300, while compaction runs: the payload is
// replaced by its placeholder before the result is cut, so no decision
// and no compaction request holds a piece of it.
func TestNoPayloadPieceReachesTheModel(t *testing.T) {
	t.Setenv("THEA_E2E_KEY", key)
	t.Setenv("THEA_ENC_TOKEN", encToken)
	const compaction = `context:
  compaction: {enabled: true, context_window: 2600, reserve_tokens: 400, keep_recent_turns: 2, keep_recent_tokens: 400,
    tool_result_max_chars: 300, max_input_chars: 4000, max_summary_rounds: 2}
`
	_, _, _, bodies, _ := runEncoded(t, &toolBrain{tool: "snapshot", calls: 12, text: "The hall is empty."}, compaction)
	payload := snapshotPayload()
	const piece = 16 // a fifth of a line of base64: no accident
	pieces := make(map[string]bool, len(payload))
	for i := 0; i+piece <= len(payload); i++ {
		pieces[payload[i:i+piece]] = true
	}
	compactions, placeholders := 0, 0
	for i, b := range bodies {
		if bytes.Contains(b, []byte("checkpoint summary of an embodied agent")) {
			compactions++
		}
		placeholders += bytes.Count(b, []byte("[base64 payload omitted: 4000 chars]"))
		for j := 0; j+piece <= len(b); j++ {
			if pieces[string(b[j:j+piece])] {
				t.Fatalf("request %d holds %q of the payload:\n%.3000s", i+1, b[j:j+piece], b)
			}
		}
	}
	if compactions == 0 || placeholders == 0 {
		t.Fatalf("%d requests, %d of them compaction rounds, %d placeholders: the test did not exercise the cut and compaction",
			len(bodies), compactions, placeholders)
	}
	t.Logf("%d requests, %d compaction rounds, %d placeholders", len(bodies), compactions, placeholders)
}
