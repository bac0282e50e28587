package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/thea-harness/thea/cmd/thea/cli"
	"github.com/thea-harness/thea/internal/testutil"
	"github.com/thea-harness/thea/runlog"
)

var householdSpec = filepath.Join("..", "..", "..", "examples", "household", "spec.cue")

// Bound off loopback without a token, serve refuses before it starts
// anything; a token on the command line is not an option at all.
func TestServeRefusesOffLoopbackWithoutToken(t *testing.T) {
	t.Setenv("THEA_SERVE_TOKEN", "")
	code, _, errs := run(t, "serve", "--spec", householdSpec, "--addr", "0.0.0.0:0")
	if code != 1 || !strings.Contains(errs, "refusing to serve on 0.0.0.0:0 without a bearer token") {
		t.Errorf("exit %d, stderr %q; want 1 and the refusal", code, errs)
	}
	t.Setenv("ROBOT_TOKEN", "short")
	code, _, errs = run(t, "serve", "--spec", householdSpec, "--addr", "10.1.2.3:0", "--token-env", "ROBOT_TOKEN")
	if code != 1 || !strings.Contains(errs, "at least 16") {
		t.Errorf("short token: exit %d, stderr %q", code, errs)
	}
	if code, _, _ := run(t, "serve", "--spec", householdSpec, "--token", "x"); code != 2 {
		t.Errorf("--token on the command line: exit %d, want a usage error", code)
	}
	if code, _, errs := run(t, "serve"); code != 2 || !strings.Contains(errs, "serve needs --spec") {
		t.Errorf("no spec: exit %d, %q", code, errs)
	}
}

// The household demo over HTTP: the simulator runs as a real MCP
// subprocess, the task's events stream as SSE to done, the run log is
// written, and cancelling the command shuts it down with exit 0.
func TestServeHouseholdOverHTTP(t *testing.T) {
	spec := testutil.ExampleCopy(t, householdSpec)
	runs := t.TempDir()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	pr, pw := io.Pipe()
	exit := make(chan int, 1)
	go func() {
		exit <- cli.Execute(ctx, strings.NewReader(""), io.Discard, pw, []string{
			"serve", "--spec", spec, "--addr", "127.0.0.1:0", "--run-log", runs})
		pw.Close()
	}()
	var mu sync.Mutex
	var stderr bytes.Buffer
	urls := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			line := sc.Text()
			mu.Lock()
			stderr.WriteString(line + "\n")
			mu.Unlock()
			if _, after, ok := strings.Cut(line, " on http://"); ok {
				urls <- "http://" + strings.Fields(after)[0]
			}
		}
		close(urls)
	}()
	base, ok := <-urls
	if !ok {
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("serve did not start (exit %d):\n%s", <-exit, stderr.String())
	}

	resp, err := http.Post(base+"/v1/tasks", "application/json", strings.NewReader(`{"instruction":"Put the mug in the top drawer"}`))
	if err != nil {
		t.Fatal(err)
	}
	var sub struct {
		ID     int    `json:"id"`
		Events string `json:"events"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&sub); err != nil || resp.StatusCode != http.StatusAccepted {
		t.Fatalf("submit: %d %v", resp.StatusCode, err)
	}
	resp.Body.Close()
	resp, err = http.Get(base + sub.Events)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var kinds []string
	var done runlog.Event
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		if e, ok := strings.CutPrefix(line, "event: "); ok {
			event = e
			kinds = append(kinds, e)
		}
		if d, ok := strings.CutPrefix(line, "data: "); ok && event == "done" {
			if err := json.Unmarshal([]byte(d), &done); err != nil {
				t.Fatal(err)
			}
		}
	}
	if done.Done == nil || done.Done.Reason != runlog.DoneFinal || done.Done.Turns != 10 || !strings.HasPrefix(done.Done.RunDir, runs) {
		t.Fatalf("done: %+v; events %v", done.Done, kinds)
	}
	for _, k := range []string{"observation", "model", "hook", "tool_call", "tool_result", "evaluation", "notification"} {
		if !strings.Contains(" "+strings.Join(kinds, " ")+" ", " "+k+" ") {
			t.Errorf("no %s event on the stream", k)
		}
	}
	// The stream also carries the server's own events (Task Notes and the
	// back-ends' health as they change), which the run log does not.
	engineKinds := slices.DeleteFunc(slices.Clone(kinds), func(k string) bool { return k == "notes" || k == "health" })
	if evs := readRunLog(t, runs); len(evs) != len(engineKinds) {
		t.Errorf("run log has %d events, the stream %d: one bus feeds both", len(evs), len(engineKinds))
	}
	cancel()
	if code := <-exit; code != 0 {
		mu.Lock()
		defer mu.Unlock()
		t.Errorf("serve exit %d after cancel:\n%s", code, stderr.String())
	}
}
