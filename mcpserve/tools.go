package mcpserve

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/thea-harness/thea/engine"
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

// refreshTools re-reads the tool definitions after a task: its tool
// experience joins the descriptions, as for the model's next task.
func (s *Server) refreshTools(ctx context.Context) {
	faced, err := s.h.FaceTools(ctx)
	if err != nil {
		s.log.Warn("re-reading the tool definitions", "err", err)
		return
	}
	var changed []server.ServerTool
	for _, ft := range faced {
		if old, ok := s.faced[ft.Def.Name]; ok && old.Def.Description != ft.Def.Description {
			s.faced[ft.Def.Name] = ft
			changed = append(changed, server.ServerTool{Tool: robotTool(ft), Handler: s.callRobot})
		}
	}
	if len(changed) > 0 {
		s.mcp.AddTools(changed...)
	}
}
