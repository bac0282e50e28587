package toolsets

import (
	"strings"
	"testing"
)

// With max_restarts 0 a crash says the back-end stays down, not that it is
// restarted on the next call; with a budget left it says it is restarted.
func TestMCPCrashMessageFollowsTheRestartBudget(t *testing.T) {
	f := newFixture(t)
	cfg := f.spec.Toolsets["sim"]
	cfg.Restart.MaxRestarts = 0
	f.spec.Toolsets["sim"] = cfg
	ts := f.start(t)
	env := call(t, ts, "crash", `{}`)
	wantFailure(t, env, "crashed", "max_restarts is 0", "not restarted")
	if strings.Contains(env.Reason, "restarted on the next call") {
		t.Fatalf("reason promises a restart that will not happen: %q", env.Reason)
	}
	wantFailure(t, call(t, ts, "echo", `{"text":"x"}`), "the most allowed")

	g := newFixture(t)
	wantFailure(t, call(t, g.start(t), "crash", `{}`), "it is restarted on the next call")
}
