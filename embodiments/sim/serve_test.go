package sim_test

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/thea-harness/thea/embodiments/sim"
)

// TestServeInProcess serves two JSON-RPC lines from a reader and stops at
// end of input, the way `thea sim serve` ends when its client goes away.
func TestServeInProcess(t *testing.T) {
	in := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}
{"jsonrpc":"2.0","id":2,"method":"tools/list"}
`)
	var out bytes.Buffer
	err := sim.Serve(t.Context(), sim.ServeOptions{WorldPath: "testdata/flaky.yaml", Seed: 3, In: in, Out: &out, ErrLog: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"serverInfo":{"name":"thea-sim"`, `"name":"navigate_to"`, `"name":"get_clearance"`} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("output lacks %s:\n%s", want, out.String())
		}
	}
}

func TestServeBadWorld(t *testing.T) {
	err := sim.Serve(t.Context(), sim.ServeOptions{WorldPath: "testdata/missing.yaml", In: strings.NewReader(""), Out: io.Discard})
	if err == nil || !strings.Contains(err.Error(), "testdata/missing.yaml") {
		t.Fatalf("Serve with a missing world: %v", err)
	}
}
