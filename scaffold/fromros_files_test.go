package scaffold_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/scaffold"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// plantWhileReading starts a fake whose rosapi runs plant the first time
// it is asked for a definition: while the draft reads the graph, after
// init's first look at the folder.
func plantWhileReading(t *testing.T, plant func()) string {
	t.Helper()
	planted := false
	return fake(t, rosbridgetest.Options{Typedefs: func(string) []rosbridgetest.TypeDef {
		if !planted {
			planted = true
			plant()
		}
		return nil
	}})
}

// A spec.cue created, or a symbolic link planted at it, while the graph is
// read is refused with the path named: the file and the link's target are
// kept as they were, and no half a draft is left.
func TestDraftRefusesFileMadeWhileReading(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, path, outside string)
	}{
		{"file", func(t *testing.T, path, _ string) {
			if err := os.WriteFile(path, []byte("mine\n"), 0o644); err != nil {
				t.Error(err)
			}
		}},
		{"symlink", func(t *testing.T, path, outside string) {
			if err := os.Symlink(outside, path); err != nil {
				t.Error(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			spec := filepath.Join(dir, "spec.cue")
			outside := filepath.Join(t.TempDir(), "outside.cue")
			url := plantWhileReading(t, func() { tc.plant(t, spec, outside) })
			_, err := fromROS(t, url, dir)
			if err == nil || !strings.Contains(err.Error(), spec) || !strings.Contains(err.Error(), "refusing") {
				t.Fatalf("err %v, want a refusal naming %s", err, spec)
			}
			if b, err := os.ReadFile(spec); tc.name == "file" && (err != nil || string(b) != "mine\n") {
				t.Errorf("spec.cue is now %q (%v)", b, err)
			}
			if _, err := os.Lstat(outside); !os.IsNotExist(err) {
				t.Errorf("the draft was written through the link: %v", err)
			}
			entries, err := os.ReadDir(dir)
			if err != nil || len(entries) != 1 {
				t.Errorf("the folder holds %v (%v), want the planted spec.cue only", entries, err)
			}
		})
	}
}

// With --force, a regular file of an earlier draft is replaced, a
// symbolic link is not written through.
func TestDraftForceRefusesSymlink(t *testing.T) {
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "outside.cue")
	if err := os.WriteFile(outside, []byte("theirs\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "spec.cue")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(30*time.Second))
	defer cancel()
	_, err := scaffold.FromROS(ctx, scaffold.FromROSOptions{Name: "bot", URL: fake(t, rosbridgetest.Options{}), Dir: dir, Force: true, SampleWindow: testtime.Scale(time.Second)})
	if err == nil || !strings.Contains(err.Error(), "a symbolic link") || !strings.Contains(err.Error(), filepath.Join(dir, "spec.cue")) {
		t.Fatalf("err %v", err)
	}
	if b, err := os.ReadFile(outside); err != nil || string(b) != "theirs\n" {
		t.Errorf("the link's target is now %q (%v)", b, err)
	}
}
