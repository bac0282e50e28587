package toolsets

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/toolsets/internal/faultserver"
)

// FaultEnv and FaultDirEnv let the package's external tests start the
// fault server this test binary serves.
const (
	FaultEnv    = faultEnv
	FaultDirEnv = faultserver.DirEnv
)

// A section built in Go without start_timeout is refused with the field's
// name: the body layer has no second default to start it with silently.
func TestNoStartTimeoutIsAnError(t *testing.T) {
	self, dir := newFaultDir(t)
	spec := faultSpec(self, dir)
	cfg := engine.ToolsetConfig{Name: "base", Section: spec.Toolsets["base"], Dir: spec.Dir}
	g, err := engine.StartToolset(t.Context(), MCPKind(), cfg, body.NewLayer(body.Shared{}), nil)
	if err == nil {
		_ = g.Close()
		t.Fatal("a toolset without start_timeout started")
	}
	if !strings.Contains(err.Error(), "toolsets.base.start_timeout") {
		t.Fatalf("err = %v, want it to name toolsets.base.start_timeout", err)
	}
}
