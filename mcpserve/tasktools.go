package mcpserve

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// callBegin opens a task with the client's instruction and returns the
// present it starts from.
func (s *Server) callBegin(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	instruction := strings.TrimSpace(req.GetString("instruction", ""))
	if instruction == "" {
		return refusal(ToolBeginTask, `give the task's instruction as {"instruction": "..."}`), nil
	}
	if err := s.acquire(ctx); err != nil {
		return nil, err
	}
	defer s.release()
	defer s.touch()
	if t := s.task; t != nil {
		return refusal(ToolBeginTask, fmt.Sprintf("a task is open (%q); end it with end_task first", t.instruction)), nil
	}
	rep, err := s.beginTask(ctx, instruction, false)
	if err != nil {
		return nil, err
	}
	if rep != nil {
		return refusal(ToolBeginTask, "the task could not start: "+reportLine(*rep)), nil
	}
	out := []mcp.Content{mcp.NewTextContent("Task begun: " + instruction)}
	return &mcp.CallToolResult{Content: append(out, contents(present(&s.task.pending.req))...)}, nil
}

// callEnd ends the open task with the client's summary as its report.
func (s *Server) callEnd(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	summary := strings.TrimSpace(req.GetString("summary", ""))
	if summary == "" {
		summary = "Task ended by the MCP client."
	}
	if err := s.acquire(ctx); err != nil {
		return nil, err
	}
	defer s.release()
	if s.task == nil {
		return refusal(ToolEndTask, "no task is open"), nil
	}
	rep := s.endTask(ctx, summary)
	s.refreshTools(ctx)
	return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent("Task ended: " + reportLine(rep))}}, nil
}
