package toolsets

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/internal/callgate"
	"github.com/thea-harness/thea/toolsets/internal/testserver"
)

const secret = "LOCAL-FILE-CONTENT-7f3a"

// TestSchemaRefsNotFollowed: a real MCP back-end whose tool schemas $ref a
// mode-600 local file, /dev/stdin and a relative path starts with those tools
// left out (the reason logged), its other tools usable, and the file's
// content nowhere: not in a tool definition, the log or a call's reason.
// Without the refusing loader the file's enum reaches the tool and the model.
func TestSchemaRefsNotFollowed(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "secret.json")
	if err := os.WriteFile(path, []byte(`{"enum": ["forward", "`+secret+`"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	f := newFixture(t)
	sec := f.spec.Toolsets["sim"]
	sec.Config.(MCPConfig).Env[testserver.SchemaRefEnv] = path
	f.spec.Toolsets["sim"] = sec
	var logs bytes.Buffer
	ts, err := startMCP(t.Context(), configFor(f.spec, "sim", nil),
		body.Shared{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ts.Close() })

	tools, _ := ts.Tools(t.Context())
	var seen []string
	for _, tool := range tools {
		def := tool.Def()
		seen = append(seen, def.Name)
		b, _ := json.Marshal(def)
		if strings.Contains(string(b), secret) {
			t.Errorf("tool %s carries the file's content: %s", def.Name, b)
		}
	}
	for _, gone := range []string{"ref_file", "ref_stdin", "ref_relative"} {
		if contains(seen, gone) {
			t.Errorf("tool %s is offered; want it left out", gone)
		}
		if why := ts.Unavailable()[gone]; !strings.Contains(why, "outside the schema") {
			t.Errorf("Unavailable()[%s] = %q", gone, why)
		}
		if !strings.Contains(logs.String(), "tool="+gone) {
			t.Errorf("no start-up log line names %s:\n%s", gone, logs.String())
		}
	}
	if !strings.Contains(logs.String(), "outside the schema") {
		t.Errorf("log gives no reason:\n%s", logs.String())
	}
	if strings.Contains(logs.String(), secret) {
		t.Errorf("the log shows the file's content:\n%s", logs.String())
	}
	if !contains(seen, "echo") || !contains(seen, "ref_internal") {
		t.Fatalf("tools %v: want echo and ref_internal kept", seen)
	}
	env := toolByName(t, ts, "ref_internal").Call(callgate.Through(t.Context()), json.RawMessage(`{"direction":"sideways"}`))
	if env.Success || !strings.Contains(env.Reason, `"forward", "back"`) {
		t.Errorf("internal $ref not applied: %+v", env)
	}
	if env := toolByName(t, ts, "ref_internal").Call(callgate.Through(t.Context()), json.RawMessage(`{"direction":"back"}`)); !env.Success {
		t.Errorf("valid call failed: %+v", env)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
