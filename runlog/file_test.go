package runlog_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/thea-harness/thea/internal/readfile"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// What the Writer writes, the Reader reads back: the same events, their
// images saved beside the log under the names the lines give.
func TestWriterAndReaderAgree(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	w, err := runlog.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	confirm := &runlog.Confirmation{By: "script", Tool: "move", Hook: "ask", Outcome: runlog.ConfirmDeny, Answer: "no"}
	for _, ev := range []runlog.Event{
		{Kind: runlog.EventTaskStart, Text: "go"},
		{Kind: runlog.EventObservation, Turn: 1, Images: []world.Image{{Camera: "../front cam", MIME: "image/jpeg", Data: []byte("jpg")}}},
		{Kind: runlog.EventHook, Turn: 1, Hook: &runlog.Decision{Hook: "ask", Phase: "pre", Decision: runlog.DecisionBlock, Confirmation: confirm}},
	} {
		if err := w.Write(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var got []runlog.Line
	for rec, err := range runlog.ReadDir(t.Context(), dir, readfile.RunLog) {
		if err != nil {
			t.Fatal(err)
		}
		l, err := rec.Line()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, l)
	}
	if len(got) != 3 || got[0].Text != "go" || got[2].Hook.Confirmation.Answer != "no" {
		t.Fatalf("read back %+v", got)
	}
	if len(got[1].ImageFiles) != 1 || strings.Contains(got[1].ImageFiles[0], "/") || !strings.HasSuffix(got[1].ImageFiles[0], ".jpg") {
		t.Fatalf("image files %v", got[1].ImageFiles)
	}
	b, err := os.ReadFile(filepath.Join(dir, got[1].ImageFiles[0]))
	if err != nil || string(b) != "jpg" {
		t.Errorf("image %s: %q %v", got[1].ImageFiles[0], b, err)
	}
}

// A line that is not an event, or has no kind, is refused naming the file
// and the line (blank lines count, and are skipped).
func TestReaderNamesTheBadLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, runlog.EventsFile)
	for body, want := range map[string]string{
		"{\"kind\":\"task_start\"}\n\n{\"kind\":\"model\",\"turn\":\"one\"}\n": path + ":3: not an event",
		"{\"kind\":\"task_start\"}\n{\"text\":\"no kind\"}\n":                  path + ":2: an event without a kind",
	} {
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		var last error
		for rec, err := range runlog.ReadDir(t.Context(), dir, readfile.RunLog) {
			if err == nil {
				_, err = rec.Line()
			}
			if err != nil {
				last = err
				break
			}
		}
		if last == nil || !strings.HasPrefix(last.Error(), want) {
			t.Errorf("%q: %v, want %q", body, last, want)
		}
		var mem error
		for rec, err := range runlog.Parse(path, []byte(body), readfile.RunLog) {
			if err == nil {
				_, err = rec.Line()
			}
			if err != nil {
				mem = err
				break
			}
		}
		if mem == nil || !strings.HasPrefix(mem.Error(), want) {
			t.Errorf("%q from memory: %v, want %q", body, mem, want)
		}
	}
}
