package toolsets

import (
	"strings"
	"testing"

	"github.com/thea-harness/thea/engine/body"
	"github.com/thea-harness/thea/toolsets/internal/testserver"
)

// A real MCP back-end lists a tool whose inputSchema nests 20,000 levels,
// more than encoding/json reads: the toolset starts at once with that tool
// left out, the reason naming it and the bound, and its other tools work.
// Without the stdout filter's cut the transport drops the reply unread and
// the start fails at start_timeout with "context deadline exceeded", naming
// nothing; without the schema bounds the tool is compiled at full depth.
func TestDeepInputSchemaLeavesOutThatTool(t *testing.T) {
	f := newFixture(t)
	f.mcp(func(c *MCPConfig) { c.Env[testserver.HostileDefsEnv] = "deep" })
	ts := f.start(t)
	why := ts.Unavailable()["deep"]
	for _, want := range []string{`tool "deep"`, "deeper than the bound of 64 levels"} {
		if !strings.Contains(why, want) {
			t.Errorf("Unavailable()[deep] = %q, want it to say %q", why, want)
		}
	}
	tools, _ := ts.Tools(t.Context())
	for _, tool := range tools {
		if tool.Def().Name == "deep" {
			t.Fatal("the deep tool is offered; want it left out (not callable)")
		}
	}
	wantSuccess(t, call(t, ts, "echo", `{"text":"still here"}`))
}

// A back-end that lists one tool twice does not start: which definition a
// call meets is unknown. Left out by the tools list, the duplicate is
// harmless and the toolset starts.
func TestToolListedTwiceRefused(t *testing.T) {
	f := newFixture(t)
	f.mcp(func(c *MCPConfig) { c.Env[testserver.HostileDefsEnv] = "twice" })
	_, err := startMCP(t.Context(), configFor(f.spec, "sim", nil), body.Shared{})
	if err == nil || !strings.Contains(err.Error(), `lists "echo" more than once`) {
		t.Fatalf("start error %v: want the tool listed twice named", err)
	}
	sec := f.spec.Toolsets["sim"]
	sec.Tools = []string{"move", "observe"}
	f.spec.Toolsets["sim"] = sec
	ts := f.start(t)
	wantSuccess(t, call(t, ts, "observe", `{}`))
}
