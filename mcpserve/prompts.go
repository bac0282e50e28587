package mcpserve

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/thea-harness/thea/skills"
)

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
