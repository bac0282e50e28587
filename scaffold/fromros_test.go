package scaffold_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/scaffold"
	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
)

// fake starts a fake TurtleBot with o.
func fake(t *testing.T, o rosbridgetest.Options) string {
	t.Helper()
	srv, err := rosbridgetest.Start(t.Context(), "127.0.0.1:0", o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv.URL()
}

// draft drafts from url into a new folder and returns the spec's text.
func draft(t *testing.T, url string) (string, scaffold.Drafted) {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), testtime.Scale(30*time.Second))
	defer cancel()
	got, err := scaffold.FromROS(ctx, scaffold.FromROSOptions{Name: "bot", URL: url, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "spec.cue"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b), got
}

func TestDraftTurtlebot(t *testing.T) {
	spec, _ := draft(t, fake(t, rosbridgetest.Options{}))
	t.Log(spec)
}
