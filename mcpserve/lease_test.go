package mcpserve

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// leaseServer is an MCP server with one physical tool (drive, which takes
// the lease), one read-only tool (look) and end_task, on lease.
func leaseServer(lease *Lease) *server.MCPServer {
	srv := server.NewMCPServer("lease-test", "1.0", ServerOptions(lease)...)
	srv.AddTool(mcp.NewTool("drive"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		done, err := lease.Take(ctx)
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		defer done()
		return mcp.NewToolResultText("moved"), nil
	})
	srv.AddTool(mcp.NewTool("look"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("a kitchen"), nil
	})
	srv.AddTool(mcp.NewTool("end_task"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		lease.Release(server.ClientSessionFromContext(ctx).SessionID())
		return mcp.NewToolResultText("ended"), nil
	})
	return srv
}

// Two real clients over HTTP: the second is refused physical calls while
// the first holds the body, told who holds it and how it is released; reads
// stay open; end_task and a disconnect release it.
func TestLeaseOneControllingClient(t *testing.T) {
	lease := NewLease(0, nil)
	url := serveHTTP(t, leaseServer(lease))
	a := dial(t, url, "client-a", nil)
	b := dial(t, url, "client-b", nil)

	if text, isErr := call(t, a, "drive", nil); isErr || text != "moved" {
		t.Fatalf("first client's drive = %q (error %v), want moved", text, isErr)
	}
	text, isErr := call(t, b, "drive", nil)
	if !isErr {
		t.Fatalf("second client's drive ran while the first held the body: %q", text)
	}
	for _, want := range []string{`"client-a" 1.0`, a.ID(), "end_task", "disconnects", "read-only tools stay open"} {
		if !strings.Contains(text, want) {
			t.Errorf("refusal %q does not say %q", text, want)
		}
	}
	if text, isErr := call(t, b, "look", nil); isErr {
		t.Errorf("a read-only tool was refused to the second client: %q", text)
	}

	call(t, a, "end_task", nil)
	if text, isErr := call(t, b, "drive", nil); isErr {
		t.Fatalf("after end_task the second client was still refused: %q", text)
	}
	if text, isErr := call(t, a, "drive", nil); !isErr || !strings.Contains(text, `"client-b"`) {
		t.Fatalf("the first client moved while the second held the body: %q (error %v)", text, isErr)
	}
	if err := b.Close(); err != nil {
		t.Fatalf("closing the second client: %v", err)
	}
	if text, isErr := call(t, a, "drive", nil); isErr {
		t.Fatalf("after the holder disconnected the body stayed held: %q", text)
	}
}

// The lease lapses after its idle bound, never while a call runs.
func TestLeaseIdle(t *testing.T) {
	now := time.Unix(1000, 0)
	lease := NewLease(time.Minute, func() time.Time { return now })
	a := Holder{Client: "a", Session: "1", Releases: "idle"}
	b := Holder{Client: "b", Session: "2", Releases: "idle"}

	done, err := lease.Acquire(a)
	if err != nil {
		t.Fatal(err)
	}
	now = now.Add(time.Hour) // a long motion: still a's
	if _, err := lease.Acquire(b); !errors.Is(err, ErrHeld) {
		t.Fatalf("b took the body during a's running call: %v", err)
	}
	done()
	now = now.Add(59 * time.Second)
	if _, err := lease.Acquire(b); !errors.Is(err, ErrHeld) {
		t.Fatalf("b took the body before a's lease lapsed: %v", err)
	}
	now = now.Add(time.Second)
	if _, err := lease.Acquire(b); err != nil {
		t.Fatalf("b was refused after a's lease lapsed: %v", err)
	}
	if h, ok := lease.Holder(); !ok || h.Session != "2" {
		t.Fatalf("holder = %v, %v; want b", h, ok)
	}
}

// serve's task API enters through the same lease: an MCP client is refused
// while an HTTP task runs, and the refusal names it.
func TestLeaseEnterFromTaskAPI(t *testing.T) {
	lease := NewLease(0, nil)
	leave, err := lease.Enter("thea serve task API", "task 3")
	if err != nil {
		t.Fatal(err)
	}
	_, err = lease.Acquire(Holder{Client: "MCP client", Session: "s1"})
	if !errors.Is(err, ErrHeld) || !strings.Contains(err.Error(), "thea serve task API (session task 3)") ||
		!strings.Contains(err.Error(), "when that task ends") {
		t.Fatalf("MCP acquire during an HTTP task: %v", err)
	}
	leave()
	if _, err := lease.Acquire(Holder{Client: "MCP client", Session: "s1"}); err != nil {
		t.Fatalf("after the task ended: %v", err)
	}
	if _, err := lease.Enter("thea serve task API", "task 4"); !errors.Is(err, ErrHeld) {
		t.Fatalf("an HTTP task started while an MCP client held the body: %v", err)
	}
}
