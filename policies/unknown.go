package policies

import (
	"context"
	"fmt"

	"github.com/thea-harness/thea/rules"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// unknown is a hook whose when or rule read a value that was not sent (see
// rules.MissingError). An unknown is never a value, so the hook cannot
// tell whether its rule holds, and fails closed: an allow hook does not
// allow (the chain goes on), a confirm hook asks the user, saying what is
// missing, and every other hook blocks the call with the missing value in
// its reason. A rule that means something else says so with `??`.
func (p *Policy) unknown(ctx context.Context, h *preHook, c *PreCall, m *rules.MissingError) Step {
	why := fmt.Sprintf("hook %q: %v", h.hook.Name, m)
	switch h.hook.Action {
	case "allow":
		return Step{Decision: runlog.DecisionSkip, Reason: why + "; the call is not allowed by this hook"}
	case "confirm":
		cfg, err := schema.ConfigAs[ConfirmConfig](h.hook.Config) // the confirm action's own
		if err != nil {
			return block(fmt.Sprintf("%s; %v", why, err))
		}
		if cfg.Prompt == "" {
			cfg.Prompt = fmt.Sprintf("Allow %s with %v?", c.Env.Tool.Name, c.Args)
		}
		cfg.Prompt = fmt.Sprintf("%s (%v, so the rule cannot be checked.)", cfg.Prompt, m)
		hook := *h.hook
		hook.Config = cfg
		asked := *c
		asked.Hook = &hook
		step := h.action(ctx, &asked)
		step.Reason = why + "; asked the user: " + step.Reason
		return step
	}
	return block(why + "; blocked to stay safe (a rule gives a missing value a meaning with ??)")
}
