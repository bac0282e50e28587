package mcpserve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/policies"
)

// Confirmations is the user channel of a session an MCP client drives. A
// confirm hook's question goes to the person behind the client that made
// the call, through MCP elicitation, when that client declared the
// capability; else to the fallback channel (the spec's user channel, the
// console under serve); else nowhere, and the hook blocks (fail closed).
// The model's own questions and notifications go to the fallback.
type Confirmations struct {
	mu       sync.Mutex
	srv      *server.MCPServer
	from     *caller            // the face's call being served, once attached
	fallback engine.UserChannel // nil: none
}

var (
	_ engine.UserChannel      = (*Confirmations)(nil)
	_ engine.Confirmer        = (*Confirmations)(nil)
	_ engine.CallChannelNamer = (*Confirmations)(nil)
)

// NewConfirmations asks through srv's elicitation, falling back to
// fallback (nil for none). srv must be built with server.WithElicitation().
func NewConfirmations(srv *server.MCPServer, fallback engine.UserChannel) *Confirmations {
	return &Confirmations{srv: srv, fallback: fallback}
}

// Over makes fallback the channel behind the confirmations and returns
// them: engine.Options.WrapUser, so the spec's channel (the console under
// serve) answers what the client cannot.
func (c *Confirmations) Over(fallback engine.UserChannel) engine.UserChannel {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fallback = fallback
	return c
}

func (c *Confirmations) fallbackChannel() engine.UserChannel {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fallback
}

// errNoUser: nothing can take the model's question.
var errNoUser = errors.New("no user channel: the spec declares none and an MCP client's person is asked only to confirm calls")

// Ask implements engine.UserChannel through the fallback.
func (c *Confirmations) Ask(ctx context.Context, q engine.Question) (string, error) {
	fb := c.fallbackChannel()
	if fb == nil {
		return "", errNoUser
	}
	return fb.Ask(ctx, q)
}

// Notify implements engine.UserChannel through the fallback; without one,
// a notification has nobody to reach and is dropped (the run log keeps it).
func (c *Confirmations) Notify(ctx context.Context, text string) error {
	fb := c.fallbackChannel()
	if fb == nil {
		return nil
	}
	return fb.Notify(ctx, text)
}

// Confirm asks for one answer to a confirm hook's question: by elicitation
// when the calling client can take it, else the fallback's confirmation,
// else policies.ErrNoConfirmChannel (the hook blocks).
func (c *Confirmations) Confirm(ctx context.Context, q engine.Question) (string, error) {
	if ectx, _, done := c.asking(ctx); ectx != nil {
		defer done()
		return c.elicit(ectx, q)
	}
	if f, ok := c.fallbackChannel().(engine.Confirmer); ok {
		return f.Confirm(ctx, q)
	}
	return "", policies.ErrNoConfirmChannel
}

// ChannelNameFor names who answers for the call ctx belongs to, for the
// run log: the MCP client by elicitation, or the fallback.
func (c *Confirmations) ChannelNameFor(ctx context.Context) string {
	if ectx, s, done := c.asking(ctx); ectx != nil {
		done()
		return "mcp elicitation: " + sessionName(s)
	}
	if fb, ok := c.fallbackChannel().(engine.Confirmer); ok {
		return engine.ChannelName(fb)
	}
	return ""
}

// ChannelName names the fallback (outside a call nobody can be elicited).
func (c *Confirmations) ChannelName() string { return engine.ChannelName(c.fallbackChannel()) }

// answerField is the one field of the confirmation form.
const answerField = "answer"

// elicit asks the client that made the call. Accept carries one of the
// choices; decline is an answer (the call is refused); cancel, or an
// answer outside the choices, is no answer (the hook blocks as failed).
func (c *Confirmations) elicit(ctx context.Context, q engine.Question) (string, error) {
	choices := q.Choices
	if len(choices) == 0 {
		choices = []string{"yes", "no"}
	}
	c.mu.Lock()
	srv := c.srv
	c.mu.Unlock()
	res, err := srv.RequestElicitation(ctx, mcp.ElicitationRequest{Params: mcp.ElicitationParams{
		Message: elicitMessage(q),
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{answerField: map[string]any{
				"type": "string", "title": "Answer", "enum": choices,
				"description": "Only \"" + choices[0] + "\" lets the call run.",
			}},
			"required": []string{answerField},
		},
	}})
	if err != nil {
		return "", fmt.Errorf("asking the MCP client to confirm: %w", err)
	}
	switch res.Action {
	case mcp.ElicitationResponseActionAccept:
		ans, err := acceptedAnswer(res.Content)
		if err != nil {
			return "", fmt.Errorf("the MCP client's confirmation: %w", err)
		}
		if !slices.Contains(choices, ans) {
			return "", fmt.Errorf("the MCP client's confirmation: answer %q is not one of %s", ans, strings.Join(choices, ", "))
		}
		return ans, nil
	case mcp.ElicitationResponseActionDecline:
		return "declined", nil
	case mcp.ElicitationResponseActionCancel:
		return "", errors.New("the MCP client's person dismissed the confirmation without answering")
	}
	return "", fmt.Errorf("the MCP client's confirmation: unknown action %q", res.Action)
}

// acceptedAnswer reads the answer field of an accepted form, whatever Go
// shape the transport decoded it into.
func acceptedAnswer(content any) (string, error) {
	raw, err := json.Marshal(content)
	if err != nil {
		return "", fmt.Errorf("reading the accepted form: %w", err)
	}
	var form map[string]json.RawMessage
	if err := json.Unmarshal(raw, &form); err != nil {
		return "", fmt.Errorf("the accepted form is not an object: %w", err)
	}
	var ans string
	if err := json.Unmarshal(form[answerField], &ans); err != nil {
		return "", fmt.Errorf("the accepted form has no string %q: %w", answerField, err)
	}
	return ans, nil
}

// elicitMessage is the question with the call it asks about.
func elicitMessage(q engine.Question) string {
	if q.Call == nil {
		return q.Text
	}
	args, err := json.Marshal(q.Call.Args)
	if err != nil {
		args = []byte("(arguments not shown)")
	}
	return fmt.Sprintf("%s\n\nTool: %s\nArguments: %s\nAsked by hook %q of the robot's safety policy.", q.Text, q.Call.Tool, args, q.Call.Hook)
}

// asking is the request to elicit through, its session, and what ends it:
// ctx itself when it is an MCP request (a handler's), else the face's call
// being served (a confirm hook runs on the task's goroutine), bounded by
// ctx. A nil context: nobody can be elicited.
func (c *Confirmations) asking(ctx context.Context) (context.Context, server.ClientSession, func()) {
	if s := elicitingSession(ctx); s != nil {
		return ctx, s, func() {}
	}
	c.mu.Lock()
	from := c.from
	c.mu.Unlock()
	if from == nil {
		return nil, nil, nil
	}
	rc, ok := from.current()
	if !ok {
		return nil, nil, nil
	}
	s := elicitingSession(rc)
	if s == nil {
		return nil, nil, nil
	}
	ectx, cancel := context.WithCancelCause(rc)
	stop := context.AfterFunc(ctx, func() { cancel(context.Cause(ctx)) })
	return ectx, s, func() { stop(); cancel(nil) }
}

// elicitingSession is the calling MCP session when its client declared
// elicitation and its transport can send the request; nil otherwise.
func elicitingSession(ctx context.Context) server.ClientSession {
	s := server.ClientSessionFromContext(ctx)
	if s == nil {
		return nil
	}
	if _, ok := s.(server.SessionWithElicitation); !ok {
		return nil
	}
	ci, ok := s.(server.SessionWithClientInfo)
	if !ok || ci.GetClientCapabilities().Elicitation == nil {
		return nil
	}
	return s
}

// sessionName is a client's name, version and session id.
func sessionName(s server.ClientSession) string {
	name := "unnamed client"
	if ci, ok := s.(server.SessionWithClientInfo); ok {
		if info := ci.GetClientInfo(); info.Name != "" {
			name = strings.TrimSpace(info.Name + " " + info.Version)
		}
	}
	return fmt.Sprintf("%s (session %s)", name, s.SessionID())
}
