package mcpserve

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/skills"
)

// Resources the server offers.
const (
	ResourceObservation = "thea://observation"
	ResourceProfile     = "thea://profile"
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

// callObserve returns the present.
func (s *Server) callObserve(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	parts, err := s.present(ctx)
	if err != nil {
		return refusal(ToolObserve, err.Error()), nil
	}
	return &mcp.CallToolResult{Content: contents(parts)}, nil
}

// present is the whole current Brief and Observation: the tail of the
// decision waiting in the open task, else of a preview (the stages before
// decide run, no task or run log is written).
func (s *Server) present(ctx context.Context) ([]model.Part, error) {
	if err := s.acquire(ctx); err != nil {
		return nil, err
	}
	defer s.release()
	if t := s.task; t != nil && t.pending != nil {
		return clonedParts(present(&t.pending.req)), nil
	}
	p, err := s.h.Preview(ctx, noTask)
	if err != nil {
		return nil, fmt.Errorf("observing: %w", err)
	}
	return present(&p.Request), nil
}

// noTask is the goal the present shows while no task is open.
const noTask = "(none: no task is open)"

// present is a request's Refreshed tail: its last message, the Brief and
// Observation the engine builds fresh before every decision.
func present(req *model.Request) []model.Part {
	if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == model.RoleUser {
		return req.Messages[n-1].Parts
	}
	return []model.Part{{Text: "No observation: the spec declares none."}}
}

// clonedParts copies parts out of a request the engine still owns.
func clonedParts(ps []model.Part) []model.Part { return append([]model.Part(nil), ps...) }

// addResources offers the present and the Embodiment Profile.
func (s *Server) addResources() {
	s.mcp.AddResource(mcp.NewResource(ResourceObservation, "observation",
		mcp.WithResourceDescription("The whole current Scene Graph Brief and Observation (text; the observe tool adds the camera images)."),
		mcp.WithMIMEType("text/plain")),
		func(ctx context.Context, _ mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			parts, err := s.present(ctx)
			if err != nil {
				return nil, err
			}
			var b strings.Builder
			for _, p := range parts {
				b.WriteString(p.Text)
			}
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: ResourceObservation, MIMEType: "text/plain", Text: b.String()}}, nil
		})
	s.mcp.AddResource(mcp.NewResource(ResourceProfile, "embodiment profile",
		mcp.WithResourceDescription("The robot's Embodiment Profile: cameras, frames, limits."),
		mcp.WithMIMEType("text/plain")),
		func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: ResourceProfile, MIMEType: "text/plain", Text: s.h.Profile()}}, nil
		})
}

// addPrompts offers each skill as a prompt: its name and description, its
// body when the client gets it.
func (s *Server) addPrompts() {
	cat := s.h.SkillCatalog()
	if cat == nil {
		return
	}
	described, _ := cat.(interface {
		Skill(string) (skills.Skill, bool)
	})
	red := s.h.Redactor()
	for _, name := range cat.Names() {
		var desc string
		if described != nil {
			if sk, ok := described.Skill(name); ok {
				desc = red.String(sk.Description)
			}
		}
		s.mcp.AddPrompt(mcp.NewPrompt(name, mcp.WithPromptDescription(desc)),
			func(context.Context, mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				body, err := cat.Body(name)
				if err != nil {
					return nil, fmt.Errorf("skill %s: %w", name, err)
				}
				return &mcp.GetPromptResult{Description: desc, Messages: []mcp.PromptMessage{
					mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(red.String(body))),
				}}, nil
			})
	}
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
