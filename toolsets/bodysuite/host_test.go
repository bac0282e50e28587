package bodysuite_test

import (
	"testing"
	"time"

	"github.com/thea-harness/thea/components"
	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/internal/testtime"
	"github.com/thea-harness/thea/schema"
)

// The host owns the body: the bare kind, registered beside this build's
// kinds in the catalog components.Default wires, shares one body's motion
// lock and uncertainty with an mcp toolset, though neither kind was given
// anything of the body layer.
func TestOneBodyAcrossKindsThroughTheHost(t *testing.T) {
	c, err := components.Default(components.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Add(bareKind()); err != nil {
		t.Fatal(err)
	}
	self, dir := newFaultDir(t)
	spec := faultSpec(mcpTransport(), self, dir, "base")
	arm := bareTransport().toolset(self, dir)
	arm.Timeout, arm.Restart, arm.StopGrace = spec.Toolsets["base"].Timeout, spec.Toolsets["base"].Restart, spec.Toolsets["base"].StopGrace
	spec.Toolsets["arm"] = arm
	spec.Tools["arm.move_base"] = spec.Tools["base.move_base"]
	base := spec.Toolsets["base"]
	base.StopGrace = schema.Duration(testtime.Scale(10 * time.Second)) // the gated motion outlives its timeout
	spec.Toolsets["base"] = base
	startVia := func(name string) *engine.Guarded {
		g, err := c.StartToolset(t.Context(), configFor(spec, name, nil), nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = g.Close() })
		return g
	}
	mcp, bare := startVia("base"), startVia("arm")

	wantFailure(t, call(t, mcp, "move_base", `{"ms":0,"fault":"gate"}`), "timed out")
	wantFailure(t, call(t, bare, "move_base", `{"ms":1}`), "a motion is still running", "move_base on the base back-end")
	b := mcp.Toolset.(*body.Toolset).Body()
	if bare.Toolset.(*body.Toolset).Body() != b {
		t.Fatal("the two kinds' toolsets of one body got two bodies")
	}
	release(t, dir)
	testtime.Wait(t, "the motion in flight ending", func() bool { return len(b.InFlight()) == 0 })
	wantFailure(t, call(t, bare, "move_base", `{"ms":1}`), "uncertain", "any part of the body")
	wantSuccess(t, call(t, mcp, "observe", `{}`))
	wantSuccess(t, call(t, bare, "move_base", `{"ms":1}`))
	noOverlaps(t, dir)
}
