package rosbridge

import (
	"strings"
	"testing"
)

// A state expression over a robot's message is held to the same bound as
// a goal: refused before it is built, naming the expression and the limit.
func TestStateExprBounded(t *testing.T) {
	prog, err := compileExpr("repeat(msg.data, 100000)", "msg", nil, "observation.state.log.value")
	if err != nil {
		t.Fatal(err)
	}
	_, err = run(prog, "msg", map[string]any{"data": strings.Repeat("x", 64<<10)})
	if err == nil || !strings.Contains(err.Error(), `expr "repeat(msg.data, 100000)"`) || !strings.Contains(err.Error(), "65536 bytes") {
		t.Fatalf("err = %v", err)
	}
	big, err := compileExpr("msg.data", "msg", nil, "observation.state.log.value")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run(big, "msg", map[string]any{"data": strings.Repeat("x", 1<<20)}); err == nil || !strings.Contains(err.Error(), "65536 bytes") {
		t.Fatalf("a 1 MiB state value: err = %v", err)
	}
}
