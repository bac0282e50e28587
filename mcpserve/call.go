package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/thea-harness/thea/engine/model"
)

// callRobot hands one robot tool call to the session as the acting model's
// decision and returns what the model would be told.
func (s *Server) callRobot(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	name := req.Params.Name
	raw, why := s.arguments(req.Params.Arguments)
	if why != "" {
		return refusal(name, why), nil
	}
	info := CallInfo{Tool: name, Physical: s.physical[name], Session: sessionID(ctx)}
	if s.opts.BeforeCall != nil {
		if err := s.opts.BeforeCall(ctx, info); err != nil {
			return refusal(name, err.Error()), nil
		}
	}
	if err := s.acquire(ctx); err != nil {
		return nil, err
	}
	defer s.release()
	defer s.touch()
	defer s.callCtx.serving(ctx)()
	if s.task == nil {
		rep, err := s.beginTask(ctx, ImplicitInstruction, true)
		if err != nil {
			return nil, err
		}
		if rep != nil {
			return refusal(name, "the task could not start: "+reportLine(*rep)), nil
		}
	}
	t := s.task
	s.calls++
	id := fmt.Sprintf("mcp_%d", s.calls)
	mark := t.count()
	s.setCaller(server.ClientSessionFromContext(ctx))
	defer s.setCaller(nil)
	t.pending.reply <- model.Response{ToolCalls: []model.ToolCall{{ID: id, Name: name, Arguments: raw}}}
	t.pending = nil
	ended, err := s.next(ctx, t)
	if err != nil {
		s.cancelled(t, info)
		return nil, err
	}
	evs, _ := t.since(mark)
	if ended {
		s.task = nil
		rep := t.finalReport()
		return callResult(id, nil, evs, &rep), nil
	}
	return callResult(id, &t.pending.req, evs, nil), nil
}

// cancelled: the client gave up on a call in the session. The default
// stops the task (a motion in flight takes the body layer's stop path);
// either way the server waits for the session to settle, so the next call
// finds it waiting for a decision or ended. Called with the turn held.
func (s *Server) cancelled(t *taskRun, info CallInfo) {
	if s.opts.OnCancel != nil {
		s.opts.OnCancel(info)
	} else {
		t.cancel()
	}
	ended, err := s.next(s.base, t)
	if ended || err != nil {
		s.task = nil
		t.cancel()
		<-t.done
	}
}

// arguments are a call's arguments as JSON, bounded; what the client sent
// is handed on as it is (the engine answers a malformed call readably).
func (s *Server) arguments(args any) (json.RawMessage, string) {
	if args == nil {
		return json.RawMessage("{}"), ""
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, fmt.Sprintf("the arguments cannot be encoded as JSON: %v", err)
	}
	if len(raw) > s.opts.MaxArgBytes {
		return nil, fmt.Sprintf("the arguments are %d bytes of JSON; this server takes at most %d", len(raw), s.opts.MaxArgBytes)
	}
	return raw, ""
}

func sessionID(ctx context.Context) string {
	if cs := server.ClientSessionFromContext(ctx); cs != nil {
		return cs.SessionID()
	}
	return ""
}

// refusal is the result of a call that never reached the session.
func refusal(tool, why string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{
		mcp.NewTextContent(fmt.Sprintf("%s not executed: %s", tool, why)),
	}}
}
