package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
)

// The harness's own tools, beside the robot's.
const (
	ToolBeginTask = "begin_task"
	ToolEndTask   = "end_task"
	ToolObserve   = "observe"
)

// addTools offers the robot's visible tools as the acting model sees them
// and the harness's own three. A robot tool with one of those names is an
// error: the client could not reach one of the two.
func (s *Server) addTools(ctx context.Context) error {
	faced, err := s.h.FaceTools(ctx)
	if err != nil {
		return fmt.Errorf("listing the session's tools: %w", err)
	}
	s.faced = make(map[string]engine.FaceTool, len(faced))
	s.physical = make(map[string]bool, len(faced))
	tools := make([]server.ServerTool, 0, len(faced)+3)
	for _, ft := range faced {
		if slices.Contains([]string{ToolBeginTask, ToolEndTask, ToolObserve}, ft.Def.Name) {
			return fmt.Errorf("tools.%s: the MCP face offers its own %s tool; hide the robot's (tools.%s.hidden) or rename it", ft.Def.Name, ft.Def.Name, ft.Def.Name)
		}
		s.faced[ft.Def.Name] = ft
		s.physical[ft.Def.Name] = ft.Physical
		tools = append(tools, server.ServerTool{Tool: robotTool(ft), Handler: s.callRobot})
	}
	tools = append(tools,
		server.ServerTool{Tool: harnessTool(ToolBeginTask,
			"Begins a task: the instruction you are working on for the user. Its turns, verdicts and Task Notes are recorded as one task of the run log; memory and tool experience are written when it ends. Returns the present (Brief and Observation).",
			`{"type":"object","properties":{"instruction":{"type":"string","description":"what the user asked for"}},"required":["instruction"]}`), Handler: s.callBegin},
		server.ServerTool{Tool: harnessTool(ToolEndTask,
			"Ends the open task with your report of what happened; the harness writes memory and tool experience. A task begun implicitly (a robot call without begin_task) also ends after the server's idle period.",
			`{"type":"object","properties":{"summary":{"type":"string","description":"your report of the task"}}}`), Handler: s.callEnd},
		server.ServerTool{Tool: harnessTool(ToolObserve,
			"Returns the present: the whole current Scene Graph Brief and Observation as text, and each camera image.",
			`{"type":"object","properties":{}}`), Handler: s.callObserve},
	)
	s.mcp.AddTools(tools...)
	return nil
}

// robotTool is one robot tool's MCP definition: its description and input
// schema as the model reads them, its hints from the effective contract.
func robotTool(ft engine.FaceTool) mcp.Tool {
	return mcp.Tool{
		Name:           ft.Def.Name,
		Description:    ft.Def.Description,
		RawInputSchema: ft.Def.InputSchema,
		Annotations: mcp.ToolAnnotation{
			ReadOnlyHint:    mcp.ToBoolPtr(!ft.Physical),
			DestructiveHint: mcp.ToBoolPtr(ft.Physical),
			OpenWorldHint:   mcp.ToBoolPtr(ft.Physical),
		},
	}
}

func harnessTool(name, desc, schema string) mcp.Tool {
	readOnly := name == ToolObserve
	return mcp.Tool{Name: name, Description: desc, RawInputSchema: json.RawMessage(schema),
		Annotations: mcp.ToolAnnotation{ReadOnlyHint: mcp.ToBoolPtr(readOnly), DestructiveHint: mcp.ToBoolPtr(false)}}
}

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
	defer s.caller.serving(ctx)()
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
