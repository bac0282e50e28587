package serve

import (
	"context"
	"os"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// slowServerEnv makes the test binary serve an MCP back-end whose motion
// never finishes on its own: only its stop tool (the deployment-owned stop
// the harness calls on a cancellation) ends it, and the server writes the
// file markerEnv names when the motion is stopped.
const (
	slowServerEnv = "THEA_SERVE_TEST_SLOW_MCP"
	markerEnv     = "THEA_SERVE_TEST_MARKER"
	startedEnv    = "THEA_SERVE_TEST_STARTED"
	// deafEnv makes that back-end's motion deaf to its stop tool and to
	// cancellation: only a kill (after stop_grace) ends it.
	deafEnv = "THEA_SERVE_TEST_DEAF"
)

func TestMain(m *testing.M) {
	// A spec's `thea sim serve` toolset runs os.Executable(), which in
	// these tests is the test binary: serve the simulator instead.
	if len(os.Args) > 2 && os.Args[1] == "sim" && os.Args[2] == "serve" {
		os.Exit(serveSim(os.Args[3:]))
	}
	if os.Getenv(hostileServerEnv) == "1" {
		os.Exit(serveHostile())
	}
	if os.Getenv(farServerEnv) == "1" {
		os.Exit(serveFar())
	}
	if os.Getenv(slowServerEnv) == "1" {
		s := server.NewMCPServer("slow", "0.0.1")
		halt := make(chan struct{}, 1)
		s.AddTool(mcp.NewTool("drive", mcp.WithDescription("drives until told to stop")),
			func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if p := os.Getenv(startedEnv); p != "" {
					_ = os.WriteFile(p, []byte("started"), 0o600)
				}
				if os.Getenv(deafEnv) == "1" {
					select {} // until the harness kills the back-end
				}
				select {
				case <-halt:
				case <-ctx.Done():
				}
				if p := os.Getenv(markerEnv); p != "" {
					_ = os.WriteFile(p, []byte("cancelled"), 0o600)
				}
				return mcp.NewToolResultError("drive was stopped"), nil
			})
		s.AddTool(mcp.NewTool("stop", mcp.WithDescription("stops the motion")),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				select {
				case halt <- struct{}{}:
				default:
				}
				return mcp.NewToolResultText(`{"stopped": true}`), nil
			})
		if err := server.ServeStdio(s); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
