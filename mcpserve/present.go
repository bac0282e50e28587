package mcpserve

import (
	"context"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/thea-harness/thea/engine/model"
)

// Resources the server offers.
const (
	ResourceObservation = "thea://observation"
	ResourceProfile     = "thea://profile"
)

// callObserve returns the present.
func (s *Server) callObserve(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	content, _, err := s.present(ctx)
	if err != nil {
		return refusal(ToolObserve, err.Error()), nil
	}
	return &mcp.CallToolResult{Content: content}, nil
}

// present is the whole current Brief and Observation, as content and as
// text: the tail of the decision waiting in the open task, else of a
// preview (the stages before decide run; no task or run log is written).
// It is converted with the turn held: the request is the engine's.
func (s *Server) present(ctx context.Context) ([]mcp.Content, string, error) {
	if err := s.acquire(ctx); err != nil {
		return nil, "", err
	}
	defer s.release()
	if t := s.task; t != nil && t.pending != nil {
		parts := present(&t.pending.req)
		return contents(parts), partsText(parts), nil
	}
	p, err := s.h.Preview(ctx, noTask)
	if err != nil {
		return nil, "", fmt.Errorf("observing: %w", err)
	}
	parts := present(&p.Request)
	return contents(parts), partsText(parts), nil
}

func partsText(parts []model.Part) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
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

// addResources offers the present and the Embodiment Profile.
func (s *Server) addResources() {
	s.mcp.AddResource(mcp.NewResource(ResourceObservation, "observation",
		mcp.WithResourceDescription("The whole current Scene Graph Brief and Observation (text; the observe tool adds the camera images)."),
		mcp.WithMIMEType("text/plain")),
		func(ctx context.Context, _ mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			_, text, err := s.present(ctx)
			if err != nil {
				return nil, err
			}
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: ResourceObservation, MIMEType: "text/plain", Text: text}}, nil
		})
	s.mcp.AddResource(mcp.NewResource(ResourceProfile, "embodiment profile",
		mcp.WithResourceDescription("The robot's Embodiment Profile: cameras, frames, limits."),
		mcp.WithMIMEType("text/plain")),
		func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: ResourceProfile, MIMEType: "text/plain", Text: s.h.Profile()}}, nil
		})
}
