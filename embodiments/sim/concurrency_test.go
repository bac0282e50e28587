package sim_test

import (
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/thea-harness/thea/embodiments/sim"
)

// TestConcurrentCalls fires motion and observation calls at once through an
// in-process client (run with -race): the server serialises them, and the
// sum of the turns is exact.
func TestConcurrentCalls(t *testing.T) {
	w, err := sim.DefaultWorld(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.NewInProcessClient(sim.NewServer(w, 1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := c.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	if _, err := c.Initialize(t.Context(), init); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			req := mcp.CallToolRequest{}
			req.Params.Name, req.Params.Arguments = "rotate", map[string]any{"degrees": 10}
			if i%2 == 1 {
				req.Params.Name, req.Params.Arguments = "observe", nil
			}
			if _, err := c.CallTool(t.Context(), req); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	obs, _ := call(t, c, "observe", nil)
	if th := num(t, obs, "pose", "theta_deg"); !near(th, 40) {
		t.Fatalf("four concurrent 10° turns ended at %v°", th)
	}
}
