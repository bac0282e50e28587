package toolsets

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
)

// No exported way to start a toolset hands out a handle that moves the
// robot around its hooks: a physical tool of a toolset started with
// engine.StartToolset (the real MCP test server, a subprocess, under the
// real body layer) refuses a call made outside a session's call path,
// through the guarded tools and through the body layer's own, and the
// server never starts the motion; a tool that is not physical still runs.
func TestAToolsetStartedOutsideASessionMovesNothing(t *testing.T) {
	f := newFixture(t)
	ts := f.start(t)
	var bodyTools []engine.Tool
	bodyTools, err := ts.Toolset.Tools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	handles := map[string]engine.Tool{"engine.StartToolset's Guarded": toolByName(t, ts, "move")}
	for _, tl := range bodyTools {
		if tl.Def().Name == "move" {
			handles["the body layer's toolset"] = tl
		}
	}
	if len(handles) != 2 {
		t.Fatalf("handles %v: the body layer's toolset has no move", handles)
	}
	for via, move := range handles {
		env := move.Call(t.Context(), json.RawMessage(`{"ms":1}`))
		if env.Success || !strings.Contains(env.Reason, "runs only through a session's call path") {
			t.Errorf("move through %s outside a session: %+v, want a refusal", via, env)
		}
	}
	if _, err := os.Stat(f.started); !os.IsNotExist(err) {
		t.Fatalf("the server started the motion (%s: %v): a handle outside a session moved the robot", f.started, err)
	}
	if env := toolByName(t, ts, "plain").Call(t.Context(), json.RawMessage(`{}`)); !env.Success {
		t.Fatalf("a tool that is not physical, outside a session: %s", env.Reason)
	}
}
