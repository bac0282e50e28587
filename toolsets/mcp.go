package toolsets

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/schema"
)

// defaultStartTimeout bounds start-up (spawn, Initialize, ListTools) when the
// spec gives none.
const defaultStartTimeout = 30 * time.Second

// MCPToolset is one MCP back-end: a subprocess over stdio or a server over
// streamable HTTP. It restarts a crashed back-end on the next call (with
// backoff, a bounded number of times) and tracks whether the robot's state is
// uncertain after a physical call timed out or crashed.
type MCPToolset struct {
	name   string
	cfg    schema.Toolset
	tc     engine.ToolsetConfig
	logger *slog.Logger
	// key is the back-end's identity in messages: command line or URL.
	key   string
	tools []engine.Tool
	// body is the motion state shared with every toolset of the body; scope
	// is this toolset's part of it ("body" or "toolset:<name>").
	body     *Body
	scope    string
	onSafety func(SafetyEvent)
	spawn    *spawner
	// unavailable are the back-end's tools left out at start, with why.
	unavailable map[string]string

	// startSem serialises restarts (and their backoff) without holding mu,
	// so state queries and an operator's clear never wait for a restart; a
	// channel, so a caller waits for it only as long as its context allows.
	startSem  chan struct{}
	mu        sync.Mutex
	conn      *conn // nil after a crash, until the next call restarts it
	restarts  int
	backoff   time.Duration
	lastCrash string
	closed    bool
	// inflight are this toolset's physical calls not yet ended, with the
	// connection each runs on (Close calls the stop tool for them).
	inflight map[*Motion]*flight
}

var _ engine.Toolset = (*MCPToolset)(nil)

// StartMCP starts the back-end of one mcp toolset, lists its tools and
// keeps the ones the spec allows.
func StartMCP(ctx context.Context, tc engine.ToolsetConfig, deps Deps) (*MCPToolset, error) {
	deps = deps.withDefaults()
	name, cfg := tc.Name, tc.Section
	if tc.Contract == nil {
		tc.Contract = func(string) schema.ToolContract { return schema.ToolContract{} }
	}
	ts := &MCPToolset{
		name: name, cfg: cfg, tc: tc,
		logger:   deps.Logger.With("toolset", name),
		backoff:  cfg.Restart.Backoff.D(),
		body:     deps.Bodies.For(tc.Body, deps.Locks, deps.Logger),
		scope:    "body",
		onSafety: safetySink(deps.OnSafety, tc.Host),
		inflight: map[*Motion]*flight{},
		startSem: make(chan struct{}, 1),
	}
	if tc.Uncertainty == "toolset" {
		ts.scope = "toolset:" + name
	}
	switch {
	case cfg.URL != "" && len(cfg.Command) > 0:
		return nil, fmt.Errorf("mcp toolset %q: give either command or url, not both", name)
	case cfg.URL != "":
		ts.key = "url:" + cfg.URL
	case len(cfg.Command) > 0:
		ts.key = "cmd:" + strings.Join(cfg.Command, " ")
	default:
		return nil, fmt.Errorf("mcp toolset %q: needs a command (stdio) or a url (streamable HTTP)", name)
	}
	ts.spawn = newSpawner()
	c, err := ts.start(ctx)
	if err != nil {
		ts.spawn.stop()
		return nil, fmt.Errorf("mcp toolset %q: %w", name, err)
	}
	ts.conn = c
	if err := ts.listTools(ctx, c); err != nil {
		c.close()
		ts.spawn.stop()
		return nil, fmt.Errorf("mcp toolset %q: %w", name, err)
	}
	ts.logger.Debug("mcp back-end started", "tools", len(ts.tools))
	return ts, nil
}

func (ts *MCPToolset) startTimeout() time.Duration {
	if d := ts.cfg.StartTimeout.D(); d > 0 {
		return d
	}
	return defaultStartTimeout
}

func (ts *MCPToolset) listTools(ctx context.Context, c *conn) error {
	lctx, cancel := context.WithTimeout(ctx, ts.startTimeout())
	defer cancel()
	res, err := c.client.ListTools(lctx, mcp.ListToolsRequest{})
	if err != nil {
		return fmt.Errorf("listing tools: %w", err)
	}
	have := make([]string, 0, len(res.Tools))
	for _, t := range res.Tools {
		if why := badToolName(t.Name); why != "" {
			ts.logger.Warn("mcp tool left out", "tool", fmt.Sprintf("%q", t.Name), "why", why)
			continue
		}
		have = append(have, t.Name)
	}
	keep, missing := restrict(ts.cfg.Tools, have)
	if len(missing) > 0 {
		return fmt.Errorf("the back-end has no tool %s (it has: %s)", strings.Join(missing, ", "), quotedNames(have))
	}
	for _, t := range res.Tools {
		if !keep[t.Name] {
			continue
		}
		// mcp-go decodes inputSchema into a struct; re-encoding it keeps
		// type, properties (verbatim), required, additionalProperties and $defs.
		in, err := json.Marshal(t.InputSchema)
		if err != nil {
			return fmt.Errorf("tool %q: encoding its inputSchema: %w", t.Name, err)
		}
		contract := ts.tc.Contract(t.Name)
		mt := &mcpTool{ts: ts, physical: contract.Physical,
			observation: schema.RefersTo(ts.tc.Observation, ts.name, t.Name),
			def:         model.ToolDef{Name: t.Name, Description: t.Description, InputSchema: in}}
		g, err := Guard(mt, contract, ts.cfg.Timeout.D(), WithMaxResultBytes(ts.cfg.MaxResultBytes))
		if errors.Is(err, ErrToolUnavailable) {
			ts.logger.Warn("tool unavailable", "tool", t.Name, "reason", err.Error())
			ts.markUnavailable(t.Name, err)
			continue
		}
		if err != nil {
			return err
		}
		ts.tools = append(ts.tools, g)
	}
	return nil
}

// Name is the toolset's name in the spec.
func (ts *MCPToolset) Name() string { return ts.name }

// Tools returns the guarded tools listed at start.
func (ts *MCPToolset) Tools(context.Context) ([]engine.Tool, error) { return ts.tools, nil }

// Close ends the back-end (its whole process group); it is idempotent. With a
// physical call in flight it first calls the stop tool (bounded by its
// timeout), and the body is left uncertain.
func (ts *MCPToolset) Close() error {
	ts.mu.Lock()
	c := ts.conn
	wasClosed := ts.closed
	ts.conn, ts.closed = nil, true
	flights := make([]*flight, 0, len(ts.inflight))
	for _, f := range ts.inflight {
		flights = append(flights, f)
	}
	ts.mu.Unlock()
	if !wasClosed {
		ts.closeFlights(flights)
	}
	if c != nil {
		c.close()
	}
	ts.spawn.stop()
	return nil
}

func (ts *MCPToolset) isClosed() bool {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.closed
}

// ClearUncertain is the operator's clear: it clears the whole body's
// uncertainty (every scope). A motion still in flight keeps its lock.
func (ts *MCPToolset) ClearUncertain() { ts.body.Clear() }

// Uncertain returns why this toolset's physical calls are refused, or "".
func (ts *MCPToolset) Uncertain() string { return ts.body.Uncertain(ts.scope) }

// Body returns the body whose motion state this toolset shares.
func (ts *MCPToolset) Body() *Body { return ts.body }

// Restarts returns how many times the back-end was restarted.
func (ts *MCPToolset) Restarts() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.restarts
}

func (ts *MCPToolset) markUncertain(tool, what string) {
	if ts.cfg.OnUncertain == "continue" {
		return
	}
	obs := ts.tc.Observation
	if obs == "" {
		obs = "the observation tool"
	}
	scope := "any part of the body"
	if ts.scope != "body" {
		scope = "the " + ts.name + " toolset"
	}
	ts.body.MarkUncertain(ts.scope, fmt.Sprintf("the robot's state is uncertain since %s %s on the %s back-end at %s: physical calls on %s are refused until a well-formed observation (%s) taken after that motion ended, or an operator clears it",
		tool, what, ts.name, time.Now().Format(time.TimeOnly), scope, obs))
}

func (ts *MCPToolset) emit(ev SafetyEvent) {
	ev.Toolset = ts.name
	if ts.onSafety != nil {
		ts.onSafety(ev)
	}
}

// connection returns the live connection, restarting a crashed back-end with
// backoff within the restart budget. A restart is bounded by start_timeout,
// not by the call that found the back-end down: a call whose timeout is
// shorter than the back-end's start-up returns "restarting, try again" while
// the restart goes on, instead of failing it and burning the restart budget.
func (ts *MCPToolset) connection(ctx context.Context) (*conn, string) {
	restarting := fmt.Sprintf("the %s back-end is restarting after a crash; try again", ts.name)
	select {
	case ts.startSem <- struct{}{}:
	case <-ctx.Done():
		return nil, restarting
	}
	held := true
	defer func() {
		if held {
			<-ts.startSem
		}
	}()
	ts.mu.Lock()
	closed, c, restarts, backoff, lastCrash := ts.closed, ts.conn, ts.restarts, ts.backoff, ts.lastCrash
	ts.mu.Unlock()
	switch {
	case closed:
		return nil, fmt.Sprintf("the %s toolset is closed", ts.name)
	case c != nil:
		return c, ""
	case restarts >= ts.cfg.Restart.MaxRestarts:
		return nil, fmt.Sprintf("the %s back-end is down (%s) and was restarted %d times, the most allowed: its tools are unavailable, tell the user",
			ts.name, lastCrash, restarts)
	}
	if backoff > 0 {
		t := time.NewTimer(backoff)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return nil, restarting
		}
	}
	type started struct {
		c   *conn
		why string
	}
	done := make(chan started, 1)
	held = false // the restart releases it
	go func() {
		defer func() { <-ts.startSem }()
		c, why := ts.restart(context.WithoutCancel(ctx), lastCrash)
		done <- started{c, why}
	}()
	select {
	case r := <-done:
		return r.c, r.why
	case <-ctx.Done():
		return nil, restarting
	}
}

// restart starts the back-end again and records the outcome.
func (ts *MCPToolset) restart(ctx context.Context, lastCrash string) (*conn, string) {
	c, err := ts.start(ctx)
	ts.mu.Lock()
	ts.restarts++
	ts.backoff *= 2
	n, budget := ts.restarts, ts.cfg.Restart.MaxRestarts
	if err != nil {
		ts.lastCrash = err.Error()
		ts.mu.Unlock()
		ts.logger.Warn("mcp back-end restart failed", "restart", n, "err", err)
		ts.emit(SafetyEvent{Kind: SafetyRestartFailed, Text: fmt.Sprintf("restart %d of at most %d: %v", n, budget, err)})
		return nil, fmt.Sprintf("the %s back-end could not be restarted: %v", ts.name, err)
	}
	if ts.closed { // closed while restarting
		ts.mu.Unlock()
		c.close()
		return nil, fmt.Sprintf("the %s toolset is closed", ts.name)
	}
	ts.conn = c
	ts.mu.Unlock()
	ts.logger.Info("mcp back-end restarted", "restart", n)
	ts.emit(SafetyEvent{Kind: SafetyRestarted, Text: fmt.Sprintf("restart %d of at most %d, after: %s", n, budget, lastCrash)})
	return c, ""
}

// dropConn forgets a crashed connection (if still current) and ends it.
func (ts *MCPToolset) dropConn(c *conn) {
	ts.forget(c)
	c.close()
	ts.garbageTotal(c)
}

// killConn forgets a connection (if still current) and kills its back-end.
func (ts *MCPToolset) killConn(c *conn) {
	ts.forget(c)
	c.kill()
	ts.garbageTotal(c)
}

func (ts *MCPToolset) forget(c *conn) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.conn == c {
		ts.conn = nil
	}
}

func (ts *MCPToolset) setLastCrash(why string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.lastCrash = why
}

// restartNote tells the model what follows a crash: a restart on the next
// call while the budget lasts, otherwise that the tools stay unavailable.
func (ts *MCPToolset) restartNote() string {
	ts.mu.Lock()
	restarts := ts.restarts
	ts.mu.Unlock()
	if restarts >= ts.cfg.Restart.MaxRestarts {
		if ts.cfg.Restart.MaxRestarts == 0 {
			return "restart.max_restarts is 0, so it is not restarted: its tools are unavailable, tell the user"
		}
		return fmt.Sprintf("it was already restarted %d times, the most allowed: its tools are unavailable, tell the user", restarts)
	}
	return "it is restarted on the next call"
}
