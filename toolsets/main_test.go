package toolsets

import (
	"os"
	"testing"

	"github.com/thea-harness/thea/toolsets/internal/faultserver"
	"github.com/thea-harness/thea/toolsets/internal/testserver"
)

// serverEnv makes the test binary serve the test MCP server over stdio instead
// of running tests: the MCP tests start it as a real subprocess.
const serverEnv = "THEA_TOOLSETS_TESTSERVER"

func TestMain(m *testing.M) {
	if os.Getenv(faultEnv) == "1" {
		os.Exit(faultserver.Main(os.Getenv(faultserver.DirEnv)))
	}
	if os.Getenv(serverEnv) == "1" {
		if err := testserver.Serve(); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
