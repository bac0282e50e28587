package cli_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
)

// mcapJSDir holds the independent MCAP reader: package.json,
// package-lock.json (@mcap/core 2.2.2, @mcap/nodejs) and check.mjs. CI
// installs its node_modules with `npm ci --ignore-scripts`.
const mcapJSDir = "testdata/mcapjs"

type mcapChannel struct {
	Topic           string `json:"topic"`
	MessageEncoding string `json:"messageEncoding"`
	Schema          string `json:"schema"`
	SchemaEncoding  string `json:"schemaEncoding"`
	Count           int    `json:"count"`
	StatsCount      int    `json:"statsCount"`
}

// The household run as MCAP, read back by @mcap/core (not the Go library
// that wrote it): the summary and chunk CRCs hold, and every channel has
// the schema and the message count the run log says it should.
func TestReportMCAPReadByMcapCore(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the MCAP read-back needs Node.js 20+ (CI installs it)")
	}
	if _, err := os.Stat(filepath.Join(mcapJSDir, "node_modules", "@mcap", "core", "package.json")); err != nil {
		t.Skipf("@mcap/core is not installed: run `npm ci --prefix cmd/thea/cli/%s --ignore-scripts` (CI does)", mcapJSDir)
	}
	dir := householdRun(t)
	file := filepath.Join(t.TempDir(), "household.mcap")
	if code, _, errs := run(t, "report", "--format", "mcap", dir, "-o", file); code != 0 || !strings.Contains(errs, "report: "+file) {
		t.Fatalf("thea report --format mcap: exit %d: %s", code, errs)
	}
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(60*time.Second))
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "check.mjs", file)
	cmd.Dir = mcapJSDir
	cmd.Stderr = &strings.Builder{}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("@mcap/core read-back: %v\n%s", err, cmd.Stderr)
	}
	var got struct {
		Channels []mcapChannel `json:"channels"`
		Messages int           `json:"messages"`
		Chunks   int           `json:"chunks"`
		Problems []string      `json:"problems"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("check.mjs output: %v\n%s", err, out)
	}
	for _, p := range got.Problems {
		t.Error(p)
	}
	want := expectedMCAP(t, dir)
	seen := map[string]bool{}
	total := 0
	for _, ch := range got.Channels {
		seen[ch.Topic] = true
		total += ch.Count
		w, ok := want[ch.Topic]
		if !ok {
			t.Errorf("channel %s (%s): not expected", ch.Topic, ch.Schema)
			continue
		}
		if ch.Schema != w.Schema || ch.Count != w.Count || ch.StatsCount != w.Count || ch.MessageEncoding != "json" {
			t.Errorf("channel %s: schema %q, %d messages (statistics %d), encoding %s; want %q, %d, json",
				ch.Topic, ch.Schema, ch.Count, ch.StatsCount, ch.MessageEncoding, w.Schema, w.Count)
		}
		if wantEnc := map[bool]string{true: "jsonschema", false: ""}[w.Schema != ""]; ch.SchemaEncoding != wantEnc {
			t.Errorf("channel %s: schema encoding %q, want %q", ch.Topic, ch.SchemaEncoding, wantEnc)
		}
	}
	for topic, w := range want {
		if !seen[topic] {
			t.Errorf("channel %s (%s, %d messages) missing", topic, w.Schema, w.Count)
		}
	}
	if total != got.Messages || got.Chunks < 1 {
		t.Errorf("%d messages over the channels, %d read, %d chunks", total, got.Messages, got.Chunks)
	}
	// Without -o the file lands in the run directory.
	if code, _, errs := run(t, "report", "--format", "mcap", dir); code != 0 {
		t.Errorf("report --format mcap without -o: %d %s", code, errs)
	} else if _, err := os.Stat(filepath.Join(dir, "run.mcap")); err != nil {
		t.Error(err)
	}
}

// expectedMCAP counts, from the run log itself, what each channel must
// hold: every event on its kind's channel; every saved image on its
// camera's; a transform per observed pose; a scene update per observation
// once anything had a position; a log line per event the trace shows.
func expectedMCAP(t *testing.T, dir string) map[string]mcapChannel {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "events.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]mcapChannel{}
	add := func(topic, schema string) {
		c := want[topic]
		c.Schema = schema
		c.Count++
		want[topic] = c
	}
	positioned := false
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var ev struct {
			Kind string `json:"kind"`
			Hook *struct {
				Decision string `json:"decision"`
			} `json:"hook"`
			ModelCall *struct {
				Purpose string `json:"purpose"`
			} `json:"model_call"`
			Observation *struct {
				Pose       *struct{ X, Y float64 } `json:"pose"`
				Detections []struct {
					Position *struct{ X, Y float64 } `json:"position"`
				} `json:"detections"`
				Images []struct {
					Camera string `json:"camera"`
				} `json:"images"`
			} `json:"observation"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		add("/thea/events/"+ev.Kind, "")
		switch {
		case ev.Kind == "hook" && ev.Hook != nil && (ev.Hook.Decision == "skip" || ev.Hook.Decision == "evaluate"):
		case ev.Kind == "model_call" && ev.ModelCall != nil && ev.ModelCall.Purpose == "decide":
		default:
			add("/thea/log", "foxglove.Log")
		}
		if o := ev.Observation; o != nil {
			for _, im := range o.Images {
				add("/camera/"+im.Camera, "foxglove.CompressedImage")
			}
			if o.Pose != nil {
				add("/tf", "foxglove.FrameTransform")
			}
			for _, d := range o.Detections {
				positioned = positioned || d.Position != nil
			}
			if positioned {
				add("/thea/scene", "foxglove.SceneUpdate")
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	// The household run has two cameras and a pose every turn: a channel
	// that came out empty would not be checked at all.
	for _, topic := range []string{"/camera/head", "/camera/wrist", "/tf", "/thea/scene", "/thea/log"} {
		if want[topic].Count == 0 {
			t.Fatalf("the household run log has nothing for %s", topic)
		}
	}
	return want
}
