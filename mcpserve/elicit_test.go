package mcpserve

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/policies"
)

// confirmServer has one tool that asks conf to confirm a call, as a confirm
// hook does, and answers with what came back and who answered.
func confirmServer(conf func(*server.MCPServer) *Confirmations) *server.MCPServer {
	srv := server.NewMCPServer("confirm-test", "1.0", ServerOptions(NewLease(0, nil))...)
	c := conf(srv)
	srv.AddTool(mcp.NewTool("open_drawer"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		q := engine.Question{Kind: engine.QuestionConfirm, Text: "Allow open_drawer?", Choices: []string{"yes", "no"},
			Call: &engine.ConfirmCall{Tool: "open_drawer", Args: map[string]any{"drawer": "kitchen_drawer"}, Hook: "confirm-drawers"}}
		by := c.ChannelNameFor(ctx)
		ans, err := c.Confirm(ctx, q)
		if err != nil {
			return mcp.NewToolResultError(fmt.Sprintf("by %q: %v", by, err)), nil
		}
		return mcp.NewToolResultText(fmt.Sprintf("by %q: %s", by, ans)), nil
	})
	return srv
}

// A client that declared elicitation is asked, once, with the call shown;
// its accept and its decline are its answers.
func TestConfirmByElicitation(t *testing.T) {
	url := serveHTTP(t, confirmServer(func(s *server.MCPServer) *Confirmations { return NewConfirmations(s, nil) }))
	for _, tc := range []struct {
		action string
		want   string
	}{{"accept", ": yes"}, {"decline", ": declined"}} {
		t.Run(tc.action, func(t *testing.T) {
			var asked atomic.Int32
			var message string
			cs := dial(t, url, "person-"+tc.action, &sdk.ClientOptions{
				ElicitationHandler: func(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
					asked.Add(1)
					message = req.Params.Message
					if tc.action == "accept" {
						return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"answer": "yes"}}, nil
					}
					return &sdk.ElicitResult{Action: tc.action}, nil
				}})
			text, isErr := call(t, cs, "open_drawer", nil)
			if isErr || !strings.HasSuffix(text, tc.want) {
				t.Fatalf("open_drawer = %q (error %v), want an answer ending %q", text, isErr, tc.want)
			}
			if !strings.Contains(text, "mcp elicitation: person-"+tc.action+" 1.0 (session mcp-session-") {
				t.Errorf("the answer is not recorded as the client's by elicitation: %q", text)
			}
			if n := asked.Load(); n != 1 {
				t.Errorf("the client was asked %d times, want once", n)
			}
			for _, want := range []string{"Allow open_drawer?", "kitchen_drawer", "confirm-drawers"} {
				if !strings.Contains(message, want) {
					t.Errorf("the elicitation %q does not show %q", message, want)
				}
			}
		})
	}
}

// A dismissed form, or an answer outside the choices, is no answer.
func TestConfirmElicitationCancelFailsClosed(t *testing.T) {
	url := serveHTTP(t, confirmServer(func(s *server.MCPServer) *Confirmations { return NewConfirmations(s, nil) }))
	for name, res := range map[string]*sdk.ElicitResult{
		"cancel": {Action: "cancel"},
		"other":  {Action: "accept", Content: map[string]any{"answer": "sure"}},
	} {
		cs := dial(t, url, "person-"+name, &sdk.ClientOptions{
			ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) { return res, nil }})
		if text, isErr := call(t, cs, "open_drawer", nil); !isErr {
			t.Errorf("%s: the call was confirmed: %q", name, text)
		}
	}
}

// fallbackConfirmer stands for the spec's user channel (the console).
type fallbackConfirmer struct{ answer string }

func (f fallbackConfirmer) Ask(context.Context, engine.Question) (string, error) {
	return f.answer, nil
}
func (f fallbackConfirmer) Notify(context.Context, string) error { return nil }
func (f fallbackConfirmer) Confirm(context.Context, engine.Question) (string, error) {
	return f.answer, nil
}
func (f fallbackConfirmer) ChannelName() string { return "console" }

// A client without the capability is never elicited: the fallback answers,
// and without one the confirmation has no channel (the hook blocks).
func TestConfirmWithoutElicitation(t *testing.T) {
	withConsole := serveHTTP(t, confirmServer(func(s *server.MCPServer) *Confirmations {
		return NewConfirmations(s, fallbackConfirmer{answer: "yes"})
	}))
	if text, isErr := call(t, dial(t, withConsole, "plain", nil), "open_drawer", nil); isErr || text != `by "console": yes` {
		t.Fatalf("with a console: %q (error %v), want the console's answer", text, isErr)
	}
	bare := serveHTTP(t, confirmServer(func(s *server.MCPServer) *Confirmations { return NewConfirmations(s, nil) }))
	text, isErr := call(t, dial(t, bare, "plain", nil), "open_drawer", nil)
	if !isErr || !strings.Contains(text, policies.ErrNoConfirmChannel.Error()) {
		t.Fatalf("without any channel: %q (error %v), want the no-channel refusal", text, isErr)
	}
	if _, err := NewConfirmations(nil, nil).Confirm(t.Context(), engine.Question{}); !errors.Is(err, policies.ErrNoConfirmChannel) {
		t.Fatalf("outside an MCP request: %v", err)
	}
}
