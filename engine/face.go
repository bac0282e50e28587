package engine

import (
	"context"
	"fmt"

	"github.com/thea-harness/thea/engine/model"
)

// FaceTool is one tool as a face of the session (thea mcp) offers it: the
// definition the acting model reads (description with tool experience,
// effective input schema, redacted) and whether its effective contract is
// physical. Hidden tools are never faced.
type FaceTool struct {
	Def      model.ToolDef
	Physical bool
}

// FaceTools are the session's visible tools as the acting model would be
// offered them now, redacted as a request is. They are read without
// changing the session, so a face may list them while a task runs.
func (h *Harness) FaceTools(ctx context.Context) ([]FaceTool, error) {
	out := make([]FaceTool, 0, len(h.tools.names))
	for _, name := range h.tools.names {
		rt := h.tools.byName[name]
		if rt.Contract.Hidden {
			continue
		}
		desc, err := h.describeTool(ctx, name, rt)
		if err != nil {
			return nil, fmt.Errorf("describing tool %s: %w", name, err)
		}
		out = append(out, FaceTool{
			Def:      model.ToolDef{Name: name, Description: h.redactor.String(desc), InputSchema: h.redactor.JSON(rt.Def.InputSchema)},
			Physical: rt.Contract.Physical,
		})
	}
	return out, nil
}

// Profile is the rendered Embodiment Profile, as Resident context holds it.
func (h *Harness) Profile() string { return h.redactor.String(h.profile) }

// SkillCatalog is the session's Skill Catalog; nil when it has none.
func (h *Harness) SkillCatalog() SkillCatalog { return h.opts.Skills }
