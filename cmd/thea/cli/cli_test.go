package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/thea-harness/thea/cmd/thea/cli"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/policies"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

func run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = cli.Execute(t.Context(), strings.NewReader(""), &out, &errb, args)
	return code, out.String(), errb.String()
}

func TestValidateExample(t *testing.T) {
	for _, f := range []string{"../../../examples/household/spec.cue", "../../../examples/household/spec.yaml"} {
		if code, out, errs := run(t, "validate", f); code != 0 || out != "spec ok: 19 rules compiled, 7 tests passed\n" {
			t.Errorf("validate %s: exit %d, stdout %q, stderr %q", f, code, out, errs)
		}
	}
}

func TestValidateInvalidJSON(t *testing.T) {
	code, out, _ := run(t, "validate", "--format", "json", "../../../schema/testdata/invalid/several_problems.yaml")
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	var res struct {
		OK          *bool               `json:"ok"`
		Diagnostics []schema.Diagnostic `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("output is not a JSON object of diagnostics: %v\n%s", err, out)
	}
	if res.OK == nil || *res.OK || len(res.Diagnostics) < 2 || res.Diagnostics[0].Pos.Line == 0 {
		t.Errorf("want ok false and several positioned diagnostics, got %s", out)
	}
}

// A valid spec in JSON says so, with what was checked: CI reads one object
// whatever the outcome.
func TestValidateValidJSON(t *testing.T) {
	code, out, _ := run(t, "validate", "--format", "json", "../../../examples/household/spec.yaml")
	want := "{\n  \"ok\": true,\n  \"diagnostics\": [],\n  \"rules\": 19,\n  \"tests\": 7\n}\n"
	if code != 0 || out != want {
		t.Fatalf("exit %d, stdout:\n%s\nwant:\n%s", code, out, want)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"validate"}, {"validate", "--format", "xml", "x.cue"}, {"schema", "--format", "toml"}, {"nope"}} {
		if code, _, _ := run(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestFormatPrecedence checks flag > THEA_* environment > config file.
func TestFormatPrecedence(t *testing.T) {
	cfg := t.TempDir() + "/thea.yaml"
	if err := os.WriteFile(cfg, []byte("schema:\n  format: jsonschema\nvalidate:\n  format: json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, _ := run(t, "--config", cfg, "schema")
	if !strings.HasPrefix(out, "{") {
		t.Errorf("config file format not applied: %.40q", out)
	}
	t.Setenv("THEA_SCHEMA_FORMAT", "cue")
	_, out, _ = run(t, "--config", cfg, "schema")
	if !strings.HasPrefix(out, "//") {
		t.Errorf("environment did not override the config file: %.40q", out)
	}
	_, out, _ = run(t, "--config", cfg, "schema", "--format", "jsonschema")
	if !strings.HasPrefix(out, "{") {
		t.Errorf("flag did not override the environment: %.40q", out)
	}
	// Each command has its own keys: validate reads validate.format.
	_, out, _ = run(t, "--config", cfg, "validate", "../../../examples/household/spec.yaml")
	if !strings.HasPrefix(out, `{
  "ok": true`) {
		t.Errorf("validate.format from the config file not applied: %q", out)
	}
}

func TestRuleTestsHook(t *testing.T) {
	var out bytes.Buffer
	a := &cli.App{Stdout: &out, Stderr: &out, RuleTests: func(_ context.Context, s *schema.Spec, _ *engine.Components) ([]schema.Diagnostic, policies.TestSummary) {
		return []schema.Diagnostic{{Pos: s.Pos("tests[0]"), Message: "tests[0]: failed"}}, policies.TestSummary{Tests: 1, Failed: 1}
	}}
	if code := a.Run(t.Context(), []string{"validate", "../../../examples/household/spec.yaml"}); code != 1 {
		t.Fatalf("exit %d, want 1 when a rule test fails", code)
	}
	if !strings.Contains(out.String(), "spec.yaml:") || !strings.Contains(out.String(), "tests[0]: failed") {
		t.Errorf("rule test failure not reported at its position: %s", out.String())
	}
}

func TestMain(m *testing.M) {
	// A spec's `thea sim serve` toolset runs os.Executable(), which in these
	// tests is the test binary: serve the simulator instead of running tests.
	if os.Getenv(ptyMainEnv) == "1" {
		os.Exit(cli.Main(os.Args[1:]))
	}
	// The tests' fake robots are this binary re-executed as `sim rosbridge`
	// (the fake itself: thea sim rosbridge runs a program this package
	// does not link), or as thea-sim-rosbridge (below).
	if len(os.Args) > 2 && os.Args[1] == "sim" && os.Args[2] == "rosbridge" {
		os.Exit(rosbridgetest.Main(context.Background(), os.Args[3:], os.Stdin, os.Stdout, os.Stderr))
	}
	// So does every command that loads a spec: it evaluates the spec in
	// os.Executable() first (the bounded evaluator).
	if len(os.Args) > 1 && (os.Args[1] == "sim" || os.Args[1] == cli.EvaluatorCommand) {
		os.Exit(cli.Execute(context.Background(), os.Stdin, os.Stdout, os.Stderr, os.Args[1:]))
	}
	if len(os.Args) > 1 && os.Args[1] == simHTTPArg {
		if err := serveSimHTTP(os.Args[2:]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if len(os.Args) > 1 && os.Args[1] == startFailArg {
		os.Exit(startFailBackend())
	}
	if len(os.Args) > 1 && os.Args[1] == hostileArg {
		if err := serveHostile(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if len(os.Args) > 1 && os.Args[1] == farArg {
		if err := serveFar(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if len(os.Args) > 2 && os.Args[1] == hostileDefsArg {
		if err := serveHostileDefs(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	testscript.Main(m, map[string]func(){
		"thea": func() {
			os.Exit(cli.Execute(context.Background(), os.Stdin, os.Stdout, os.Stderr, os.Args[1:]))
		},
		// This binary run through a link of that name (simOnPath, or a
		// script's PATH) is the program thea sim rosbridge runs.
		"thea-sim-rosbridge": func() {
			os.Exit(rosbridgetest.Main(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script"})
}
