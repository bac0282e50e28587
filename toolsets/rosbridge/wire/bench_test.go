package wire_test

import (
	"os"
	"time"

	"testing"

	"github.com/thea-harness/thea/toolsets/rosbridge/rosbridgetest"
	"github.com/thea-harness/thea/toolsets/rosbridge/wire"
)

// BenchmarkServiceRoundTrip is one call_service to /dock and its
// service_response, over a real WebSocket to the in-process fake.
func BenchmarkServiceRoundTrip(b *testing.B) {
	srv, err := rosbridgetest.Start(b.Context(), "127.0.0.1:0", rosbridgetest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	c, err := wire.Dial(b.Context(), wire.Options{URL: srv.URL()})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.CallService(b.Context(), rosbridgetest.ServiceDock, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkServiceRoundTripSubprocess is the same against the fake in a
// child process, as a real rosbridge would be (compare MCPRoundTrip).
func BenchmarkServiceRoundTripSubprocess(b *testing.B) {
	p, err := rosbridgetest.StartProcess(b.Context(), os.Args[0])
	if err != nil {
		b.Fatal(err)
	}
	defer p.Stop(time.Minute)
	c, err := wire.Dial(b.Context(), wire.Options{URL: p.URL})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.CallService(b.Context(), rosbridgetest.ServiceDock, nil); err != nil {
			b.Fatal(err)
		}
	}
}
