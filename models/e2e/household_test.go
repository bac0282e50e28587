package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/thea-harness/thea/channels"
	"github.com/thea-harness/thea/cmd/thea/cli"
	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/embodiments"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/engine/model/call"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/internal/testutil"
	"github.com/thea-harness/thea/models/script"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

func TestMain(m *testing.M) {
	// The household spec's `thea sim serve` toolset runs os.Executable(),
	// here this test binary: serve the simulator instead of running tests.
	// So does the spec's bounded evaluator, which loading a spec starts.
	if len(os.Args) > 1 && (os.Args[1] == "sim" || os.Args[1] == cli.EvaluatorCommand) {
		os.Exit(cli.Execute(context.Background(), os.Stdin, os.Stdout, os.Stderr, os.Args[1:]))
	}
	if len(os.Args) > 1 && os.Args[1] == "arm-mcp" {
		os.Exit(serveArm(os.Args[2:]))
	}
	for arg, serve := range map[string]func() error{vaultArg: vaultBackend, encodedArg: encodedBackend} {
		if len(os.Args) > 1 && os.Args[1] == arg {
			if err := serve(); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			os.Exit(0)
		}
	}
	os.Exit(m.Run())
}

const key = "sk-e2e-secret-4f1c"

// server speaks a provider's wire; its answers are the episode's turns (the
// script provider's queue), so the world answers for real and only the model
// is scripted.
type server struct {
	t        *testing.T
	wire     wire
	brain    model.Model
	mu       sync.Mutex
	bodies   [][]byte
	keys     []string
	purposes []model.Purpose
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s.t.Errorf("reading request: %v", err)
	}
	var req struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if r.URL.Path != s.wire.path || json.Unmarshal(body, &req) != nil {
		http.Error(w, `{"error":{"message":"unexpected request"}}`, 400)
		return
	}
	// Only decide requests carry tools; the evaluator's request opens with
	// its judging instructions; what remains is the task-end consolidation.
	purpose := model.PurposeConsolidate
	switch {
	case len(req.Tools) > 0:
		purpose = model.PurposeDecide
	case strings.Contains(string(body), "You judge whether one robot action"):
		purpose = model.PurposeEvaluate
	}
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	s.keys = append(s.keys, r.Header.Get(s.wire.keyHeader))
	s.purposes = append(s.purposes, purpose)
	n := len(s.bodies)
	s.mu.Unlock()
	resp, err := s.brain.Generate(r.Context(), model.Request{Purpose: purpose})
	if err != nil {
		http.Error(w, fmt.Sprintf(`{"error":{"message":%q}}`, err.Error()), 500)
		return
	}
	out, err := json.Marshal(s.wire.answer(n, len(body), resp))
	if err != nil {
		s.t.Errorf("encoding answer: %v", err)
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

// newHarness starts a session of spec with its scripted user, its run
// log under runs.
func newHarness(t *testing.T, spec *schema.Spec, runs string) *engine.Harness {
	t.Helper()
	return newHarnessWith(t, spec, runs, func(*engine.Options) {})
}

// newHarnessWith is newHarness with set applied to the session's options
// last (--blind, say).
func newHarnessWith(t *testing.T, spec *schema.Spec, runs string, set func(*engine.Options)) *engine.Harness {
	t.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	opts, err := components.Session(components.Options{Logger: logger})
	must(t, err)
	sc, ok := spec.User.Config.(channels.ScriptConfig)
	if !ok {
		t.Fatalf("the spec's user channel is %q, not a script", spec.User.Channel)
	}
	answers, err := channels.LoadScript(filepath.Join(spec.Dir, sc.Script))
	must(t, err)
	opts.User, opts.RunLogDir = answers, runs
	set(&opts)
	h, err := engine.New(t.Context(), spec, opts)
	must(t, err)
	t.Cleanup(func() { _ = h.Close() })
	return h
}

// serveWire starts a local server speaking w whose answers are brain's
// turns, for the test's lifetime; it returns the server and its URL.
func serveWire(t *testing.T, w wire, brain model.Model) (*server, string) {
	t.Helper()
	srv := &server{t: t, wire: w, brain: brain}
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return srv, hs.URL
}

// overWire points spec's model at a local server speaking w whose answers
// are brain's turns, its API key in THEA_E2E_KEY.
func overWire(t *testing.T, spec *schema.Spec, w wire, brain model.Model) *server {
	t.Helper()
	srv, url := serveWire(t, w, brain)
	t.Setenv("THEA_E2E_KEY", key)
	spec.Model = w.model(call.Endpoint{Name: "e2e-model", BaseURL: url + "/v1", APIKeyEnv: "THEA_E2E_KEY", MaxTokens: 1024},
		schema.Duration(testtime.Scale(20*time.Second)), 1)
	return srv
}

// eachFile hands see every file under dir, its base name and its bytes,
// and returns how many it saw.
func eachFile(t *testing.T, dir string, see func(path, name string, b []byte)) int {
	t.Helper()
	files := 0
	must(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		see(p, d.Name(), b)
		files++
		return nil
	}))
	return files
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// freshImages counts the request's images and fails if one sits in a
// message the model has already answered (before the last assistant
// message): an image is sent with the one request that consumes it, later
// requests carry its placeholder. (Comparing pixels would not do: the robot
// standing still sees the same picture in two observations.)
func freshImages(t *testing.T, w wire, n int, body []byte) int {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	must(t, json.Unmarshal(body, &req))
	last := -1
	for i, m := range req.Messages {
		if m.Role == "assistant" {
			last = i
		}
	}
	count := 0
	for i, m := range req.Messages {
		k := len(w.images.FindAll(m.Content, -1))
		if k > 0 && i < last {
			t.Fatalf("request %d: message %d (%s), already answered, still carries %d image(s)", n, i, m.Role, k)
		}
		count += k
	}
	return count
}

// The household demo through each network adapter against a local server
// speaking its wire: the task ends with the final answer; no post-condition
// reaches the model; each camera image is sent with exactly one request (the
// one that consumes it); every tool call id is answered; the API key travels
// only in the request header and is in no file under the run directory; and
// every request states the present and keeps its prefix (checkPresent).
func TestHouseholdEpisodeOverTheWire(t *testing.T) {
	for _, w := range []wire{openaiWire(), anthropicWire()} {
		t.Run(w.provider, func(t *testing.T) { runEpisode(t, w) })
	}
}

// household loads a copy of the household example (its run's memory and
// run log stay out of the source tree) and the scripted episode that plays
// the model behind a wire.
func household(t *testing.T) (*schema.Spec, model.Model) {
	t.Helper()
	spec, brain := loadHousehold(t, testutil.ExampleCopy(t, filepath.Join("..", "..", "examples", "household", "spec.cue")))
	spec.Model.Timeout = schema.Duration(testtime.Scale(20 * time.Second))
	return spec, brain
}

// loadHousehold loads the household spec at path (a copy a test may have
// edited) and the scripted episode its model plays.
func loadHousehold(t *testing.T, path string) (*schema.Spec, model.Model) {
	t.Helper()
	c, err := components.Default(components.Options{})
	must(t, err)
	spec, diags := schema.Load([]string{path}, schema.LoadOptions{Profiles: embodiments.Profiles(), Descriptors: c.Descriptors()})
	if len(diags) > 0 || spec == nil {
		t.Fatalf("household spec: %v", diags)
	}
	sc, ok := spec.Model.Config.(script.Config)
	if !ok {
		t.Fatalf("the household model is %q, not a script", spec.Model.Provider)
	}
	brain, err := script.New(sc, spec.Dir)
	must(t, err)
	return spec, brain
}

func runEpisode(t *testing.T, w wire) {
	spec, brain := household(t)
	srv := overWire(t, spec, w, brain)

	runs := t.TempDir()
	h := newHarness(t, spec, runs)
	rep, err := h.Run(t.Context(), "Put the mug in the top drawer")
	if err != nil || rep.Reason != runlog.DoneFinal || !strings.HasPrefix(rep.Text, "Done: the mug is in the top drawer") {
		t.Fatalf("report %+v, err %v", rep, err)
	}

	srv.mu.Lock()
	all, keys, purposes := srv.bodies, srv.keys, srv.purposes
	srv.mu.Unlock()
	var bodies [][]byte // the acting model's requests
	count := map[model.Purpose]int{}
	for i, b := range all {
		if keys[i] != w.keyValue || strings.Contains(string(b), key) {
			t.Fatalf("request %d: %s %q, key in body %v", i+1, w.keyHeader, keys[i], strings.Contains(string(b), key))
		}
		count[purposes[i]]++
		switch purposes[i] {
		case model.PurposeDecide:
			bodies = append(bodies, b)
		case model.PurposeEvaluate:
			// The one model-judged post-condition (close_drawer) reaches the
			// evaluator, and only the evaluator.
			if !strings.Contains(string(b), spec.Tools["close_drawer"].PostCondition) {
				t.Errorf("the evaluator's request lacks close_drawer's post-condition")
			}
		}
	}
	if count[model.PurposeDecide] != 10 || count[model.PurposeEvaluate] != 1 || count[model.PurposeConsolidate] != 1 {
		t.Fatalf("requests by purpose %v, want the episode's 10 decisions, 1 evaluation and 1 consolidation", count)
	}
	images := 0
	for i, b := range bodies {
		for name, c := range spec.Tools {
			if c.PostCondition != "" && strings.Contains(string(b), c.PostCondition) {
				t.Fatalf("request %d carries %s's post-condition", i+1, name)
			}
		}
		images += freshImages(t, w, i+1, b)
		w.answered(t, i+1, b)
	}
	t.Logf("%d requests, %d camera images, each sent once", len(bodies), images)
	t.Run("present", func(t *testing.T) { checkPresent(t, bodies, runs, w.provider == "anthropic") })
	if images < len(bodies) {
		t.Fatalf("%d camera images in %d requests, want at least one a request", images, len(bodies))
	}
	eachFile(t, runs, func(path, _ string, b []byte) {
		if strings.Contains(string(b), key) {
			t.Errorf("the API key is in %s", path)
		}
	})
}
