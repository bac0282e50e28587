package sim_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/thea-harness/thea/embodiments/sim"
)

// When envServe is set the test binary is the simulator: TestMain serves
// over stdio and exits, so tests drive a real subprocess.
const (
	envServe = "THEA_SIM_TEST_SERVE"
	envWorld = "THEA_SIM_TEST_WORLD"
	envSeed  = "THEA_SIM_TEST_SEED"
)

func TestMain(m *testing.M) {
	if os.Getenv(envServe) == "1" {
		seed, err := strconv.ParseUint(os.Getenv(envSeed), 10, 64)
		if err != nil {
			fmt.Fprintln(os.Stderr, "bad seed:", err)
			os.Exit(2)
		}
		if err := sim.Serve(context.Background(), sim.ServeOptions{WorldPath: os.Getenv(envWorld), Seed: seed}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// simClient starts the simulator subprocess on a world file (empty for the
// default world) and initialises an MCP session.
func simClient(t *testing.T, world string, seed uint64) *client.Client {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.NewStdioMCPClient(exe, []string{envServe + "=1", envWorld + "=" + world, envSeed + "=" + strconv.FormatUint(seed, 10)})
	if err != nil {
		t.Fatalf("start simulator: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "sim-test", Version: "0"}
	if _, err := c.Initialize(t.Context(), init); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	return c
}

// call invokes a tool and decodes its JSON text envelope.
func call(t *testing.T, c *client.Client, tool string, args map[string]any) (map[string]any, *mcp.CallToolResult) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = tool, args
	res, err := c.CallTool(t.Context(), req)
	if err != nil {
		t.Fatalf("%s(%v): %v", tool, args, err)
	}
	if len(res.Content) == 0 {
		t.Fatalf("%s(%v): no content", tool, args)
	}
	text, isText := res.Content[0].(mcp.TextContent)
	if !isText {
		t.Fatalf("%s(%v): first content is %T, want text", tool, args, res.Content[0])
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(text.Text), &out); err != nil {
		t.Fatalf("%s(%v): result is not a JSON object: %v: %s", tool, args, err, text.Text)
	}
	if s, _ := out["success"].(bool); s == res.IsError {
		t.Fatalf("%s(%v): success %v but isError %v", tool, args, out["success"], res.IsError)
	}
	return out, res
}

// mustSucceed calls a tool and fails the test unless it succeeds.
func mustSucceed(t *testing.T, c *client.Client, tool string, args map[string]any) map[string]any {
	t.Helper()
	out, _ := call(t, c, tool, args)
	if out["success"] != true {
		t.Fatalf("%s(%v) failed: %v", tool, args, out["reason"])
	}
	return out
}

// mustFail calls a tool and returns its reason, failing the test on success.
func mustFail(t *testing.T, c *client.Client, tool string, args map[string]any) string {
	t.Helper()
	out, _ := call(t, c, tool, args)
	if out["success"] != false {
		t.Fatalf("%s(%v) succeeded, want a failure: %v", tool, args, out)
	}
	reason, _ := out["reason"].(string)
	if reason == "" {
		t.Fatalf("%s(%v) failed without a reason", tool, args)
	}
	return reason
}
