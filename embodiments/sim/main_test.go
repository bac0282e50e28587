package sim_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/thea-harness/thea/embodiments/sim"
	"github.com/thea-harness/thea/internal/simtools/simtoolstest"
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
	return simtoolstest.Start(t, "sim-test", exe, []string{envServe + "=1", envWorld + "=" + world, envSeed + "=" + strconv.FormatUint(seed, 10)})
}

// call invokes a tool and decodes its JSON text envelope.
func call(t *testing.T, c *client.Client, tool string, args map[string]any) (map[string]any, *mcp.CallToolResult) {
	t.Helper()
	return simtoolstest.Call(t, c, tool, args)
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
