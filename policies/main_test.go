package policies

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"testing"
)

// greedyEnv makes the test binary run the greedy rule tests in a child
// process whose address space is capped, instead of running tests: without
// the rule guard the child dies of Go's out-of-memory at once, on any
// machine, rather than taking the machine's memory with it.
const greedyEnv = "THEA_POLICIES_GREEDY_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(greedyEnv) == "1" {
		os.Exit(greedyChild())
	}
	os.Exit(m.Run())
}

func greedyChild() int {
	const limit = 2 << 30
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
		fmt.Fprintln(os.Stderr, "setrlimit:", err)
		return 3
	}
	diags := RunRuleTests(context.Background(), greedySpec(), nil)
	for _, d := range diags {
		fmt.Println(d.String())
	}
	if len(diags) > 0 {
		return 1
	}
	fmt.Println("greedy rules blocked")
	return 0
}
