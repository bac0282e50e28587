package toolsets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// MCPKind is the toolset kind of MCP back-ends (a stdio subprocess or a
// streamable HTTP server): a transport, which the engine starts under the
// host's body layer.
func MCPKind() engine.ToolsetKind {
	return engine.ToolsetKind{
		Name:     "mcp",
		Doc:      "an MCP back-end: a subprocess over stdio (command) or a server over streamable HTTP (url)",
		Config:   MCPConfig{},
		CUE:      mcpCUE,
		Validate: validateMCP,
		Provides: func(_ string, ts schema.Toolset) ([]string, bool) {
			return ts.Tools, len(ts.Tools) == 0
		},
		Transport: func(tc engine.ToolsetConfig, env engine.BackendEnv) (engine.Backend, error) {
			return newMCPBackend(tc, env)
		},
	}
}

// mcpBackend is the MCP transport of one toolset: it starts connections (a
// subprocess over stdio, or a client of a streamable HTTP server).
type mcpBackend struct {
	cfg MCPConfig
	tc  engine.ToolsetConfig
	env engine.BackendEnv
	// key is the back-end's identity in messages: command line or URL.
	key   string
	spawn *spawner
}

func newMCPBackend(tc engine.ToolsetConfig, env engine.BackendEnv) (*mcpBackend, error) {
	cfg, ok := tc.Section.Config.(MCPConfig)
	if !ok && tc.Section.Config != nil {
		return nil, fmt.Errorf("its section is a %T, not an mcp section", tc.Section.Config)
	}
	b := &mcpBackend{cfg: cfg, tc: tc, env: env}
	switch {
	case cfg.URL != "" && len(cfg.Command) > 0:
		return nil, errors.New("give either command or url, not both")
	case cfg.URL != "":
		b.key = "url:" + cfg.URL
	case len(cfg.Command) > 0:
		b.key = "cmd:" + strings.Join(cfg.Command, " ")
	default:
		return nil, errors.New("needs a command (stdio) or a url (streamable HTTP)")
	}
	if st := cfg.Stop; st != nil && st.Timeout <= 0 {
		// The schema fills stop.timeout; a section built in Go without it
		// would have no bound on the stop, and no second default to guess.
		return nil, fmt.Errorf("stop.timeout is %s: it must be positive (schema.Load fills the schema's default)", st.Timeout.D())
	}
	b.spawn = newSpawner()
	return b, nil
}

// Profile: a liveness check is a tools/list; the stop is the declared stop
// tool, if any.
func (b *mcpBackend) Profile() engine.BackendProfile {
	p := engine.BackendProfile{Liveness: "tools/list"}
	if st := b.cfg.Stop; st != nil {
		p.Stop = &engine.StopPath{Via: runlog.StopViaTool, Tool: st.Tool, Name: "stop tool " + st.Tool, Timeout: st.Timeout.D()}
	}
	return p
}

// Close ends the spawner's thread.
func (b *mcpBackend) Close() error {
	b.spawn.stop()
	return nil
}

// Tools lists the server's tools. mcp-go decodes inputSchema into a struct;
// re-encoding it keeps type, properties (verbatim), required,
// additionalProperties and $defs.
func (c *conn) Tools(ctx context.Context) ([]model.ToolDef, error) {
	res, err := c.client.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return nil, err
	}
	defs := make([]model.ToolDef, 0, len(res.Tools))
	for _, t := range res.Tools {
		in, err := json.Marshal(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("tool %q: encoding its inputSchema: %w", t.Name, err)
		}
		defs = append(defs, model.ToolDef{Name: t.Name, Description: t.Description, InputSchema: in})
	}
	return defs, nil
}

// Call runs one tool; a dead server or connection is
// engine.BackendCrashed.
func (c *conn) Call(ctx context.Context, req engine.BackendCall) (engine.BackendReply, error) {
	res, err := c.client.CallTool(ctx, mcpCallRequest(req.Tool, req.Args))
	if err != nil {
		if isCrash(err) {
			return engine.BackendReply{}, engine.BackendCrashed(err)
		}
		return engine.BackendReply{}, err
	}
	return engine.BackendReply{Envelope: toEnvelope(req.Tool, res), Malformed: notJSONText(res),
		Raw: func() string { return rawResult(res) }}, nil
}

// Stop calls the declared stop tool with its arguments.
func (c *conn) Stop(ctx context.Context, _ *engine.Motion) (runlog.Envelope, error) {
	st := c.b.cfg.Stop
	args, err := json.Marshal(st.Args)
	if err != nil {
		return runlog.Envelope{}, err
	}
	res, err := c.client.CallTool(ctx, mcpCallRequest(st.Tool, args))
	if err != nil {
		return runlog.Envelope{}, err
	}
	return toEnvelope(st.Tool, res), nil
}

// Alive lists the tools rather than pinging: ping is gone from newer
// protocol versions (mcp-go then answers it without asking the back-end),
// and a listing, like a ping, is answered by the server's own loop, not by
// the worker a hung call holds.
func (c *conn) Alive(ctx context.Context) error {
	_, err := c.client.ListTools(ctx, mcp.ListToolsRequest{})
	return err
}

func mcpCallRequest(name string, args json.RawMessage) mcp.CallToolRequest {
	return mcp.CallToolRequest{Params: mcp.CallToolParams{Name: name, Arguments: args}}
}
