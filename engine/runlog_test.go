package engine_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
	"github.com/thea-harness/thea/world"
)

func TestRunLogWritesEventsImagesAndNoSecrets(t *testing.T) {
	const key = "sk-test-7f3a9c1d"
	t.Setenv("THEA_TEST_KEY", key)
	f := newFixture(t, toolResp("the key is "+key, call("move", `{"token":"tok-12345"}`)), toolResp("done; password=hunter2"))
	f.spec.Model.Config = testModel{Name: "main", APIKeyEnv: "THEA_TEST_KEY"}
	f.spec.RunLog = schema.RunLog{Enabled: true, Dir: "runs", Redact: []string{`password=\S+`, `tok-\d+`}}
	f.tool("observe").fn = func(context.Context, map[string]any) runlog.Envelope {
		return runlog.Envelope{Success: true, Value: map[string]any{"summary": "hall"},
			Images: []world.Image{{Camera: "head", MIME: "image/png", Data: []byte("\x89PNG fake")}}}
	}
	opts := f.options(t)
	opts.Clock = func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }
	h, err := engine.New(t.Context(), f.spec, opts)
	must(t, err)
	defer h.Close()
	rep, err := h.Run(t.Context(), "go")
	must(t, err)
	if want := filepath.Join(f.spec.Dir, "runs"); !strings.HasPrefix(rep.RunDir, want) {
		t.Fatalf("RunDir %q not under %q", rep.RunDir, want)
	}
	raw, err := os.ReadFile(filepath.Join(rep.RunDir, "events.jsonl"))
	must(t, err)
	for _, secret := range []string{key, "hunter2", "tok-12345"} {
		if strings.Contains(string(raw), secret) {
			t.Fatalf("run log contains secret %q", secret)
		}
	}
	var kinds []string
	var images []string
	sc := bufio.NewScanner(strings.NewReader(string(raw)))
	for sc.Scan() {
		var line struct {
			Kind       string   `json:"kind"`
			ImageFiles []string `json:"image_files"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("line is not JSON: %s", sc.Text())
		}
		kinds = append(kinds, line.Kind)
		images = append(images, line.ImageFiles...)
	}
	if kinds[0] != "task_start" || kinds[len(kinds)-1] != "done" || strings.Count(strings.Join(kinds, " "), "done") != 1 {
		t.Fatalf("logged kinds %v", kinds)
	}
	if len(images) != 2 {
		t.Fatalf("image files %v, want one per observation", images)
	}
	b, err := os.ReadFile(filepath.Join(rep.RunDir, images[0]))
	if err != nil || string(b) != "\x89PNG fake" || !strings.HasSuffix(images[0], ".png") {
		t.Fatalf("image file %s: %q, %v", images[0], b, err)
	}
	if !strings.Contains(string(raw), "[redacted]") {
		t.Fatal("no redaction marker")
	}
}

func TestRunLogOffByDefault(t *testing.T) {
	f := newFixture(t, toolResp("done"))
	rep, err := f.harness(t).Run(t.Context(), "go")
	must(t, err)
	if rep.RunDir != "" {
		t.Fatalf("run log written while disabled: %s", rep.RunDir)
	}
	entries, err := os.ReadDir(f.spec.Dir)
	must(t, err)
	if len(entries) != 0 {
		t.Fatalf("files written into the spec dir: %v", entries)
	}
}
