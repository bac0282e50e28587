package cli_test

import (
	"encoding/base64"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
)

// tokenSpellings are the token and the encodings a proxy or a writer may
// turn it into.
func tokenSpellings(tok string) []string {
	var out []string
	for _, s := range []string{tok, "Bearer " + tok} {
		out = append(out, s, strings.ToLower(s), base64.StdEncoding.EncodeToString([]byte(s)),
			base64.RawURLEncoding.EncodeToString([]byte(s)), url.QueryEscape(s))
	}
	return out
}

func assertNoToken(t *testing.T, where, text, tok string) {
	t.Helper()
	for _, s := range tokenSpellings(tok) {
		if strings.Contains(text, s) {
			t.Errorf("%s holds the token (as %q):\n%s", where, s, text)
		}
	}
}

// A proxy in front of rosbridge (`thea sim rosbridge` in a subprocess) that
// echoes the --token-env token in rosapi's answers — a topic and a service
// named after it, a topic type, the error a definition fails with, and the
// odometry's frame ids — gets it neither into the draft (a file meant to
// be committed) nor onto init's output; the draft still validates.
func TestInitFromROSRedactsEchoedToken(t *testing.T) {
	const tok = "Tok3nEchoedByProxy_4f9a1c"
	t.Setenv("THEA_TEST_ROS_TOKEN", tok)
	url := startSim(t, "-token", tok, "-echo-token", "-echo-token-rosapi")
	dir := filepath.Join(t.TempDir(), "bot")
	code, out, errs := run(t, "init", "--from-ros", url, "bot", "--dir", dir, "--token-env", "THEA_TEST_ROS_TOKEN",
		"--sample-window", testtime.Scale(3*time.Second).String())
	if code != 0 {
		t.Fatalf("init: exit %d\n%s\n%s", code, out, errs)
	}
	b, err := os.ReadFile(filepath.Join(dir, "spec.cue"))
	if err != nil {
		t.Fatal(err)
	}
	spec := string(b)
	// The proxy's words reached the draft, the token did not.
	for _, want := range []string{"the service /proxy/session was not drafted", "proxy: the session of Authorization: [redacted]", "left out: /proxy/echo, [redacted]"} {
		if !strings.Contains(spec, want) {
			t.Errorf("the draft lacks %q:\n%s", want, spec)
		}
	}
	assertNoToken(t, "spec.cue", spec, tok)
	assertNoToken(t, "stdout", out, tok)
	assertNoToken(t, "stderr", errs, tok)
	if code, out, errs := run(t, "validate", filepath.Join(dir, "spec.cue")); code != 0 {
		t.Errorf("validate: exit %d\n%s\n%s", code, out, errs)
	}
}

// When /rosapi/topics fails with an error quoting the Authorization
// header, init's error says so with the token redacted, and writes
// nothing.
func TestInitFromROSRedactsTokenInError(t *testing.T) {
	const tok = "Tok3nInTopicsError_77d2e0"
	t.Setenv("THEA_TEST_ROS_TOKEN", tok)
	url := startSim(t, "-token", tok, "-echo-token-topics")
	dir := filepath.Join(t.TempDir(), "bot")
	code, out, errs := run(t, "init", "--from-ros", url, "bot", "--dir", dir, "--token-env", "THEA_TEST_ROS_TOKEN")
	if code == 0 || !strings.Contains(errs, "rosapi did not list the topics") || !strings.Contains(errs, "Authorization: [redacted]") {
		t.Fatalf("init: exit %d\n%s\n%s", code, out, errs)
	}
	assertNoToken(t, "stdout", out, tok)
	assertNoToken(t, "stderr", errs, tok)
	if _, err := os.Stat(filepath.Join(dir, "spec.cue")); !os.IsNotExist(err) {
		t.Errorf("a failed draft wrote spec.cue: %v", err)
	}
}
