package schema

// checkBudget warns when the budget of a decision request
// (context_window - reserve_tokens) cannot hold as written: the system
// prompt alone, at the harness's estimate of four characters a token,
// reaches it. Every request would then be over the budget, and the task
// would end at its first turn (the engine never sends one over it). The
// rest of Resident context (the profile, the tool definitions, memory) is
// known only at run time, where the engine's report names it.
func (l *loader) checkBudget(s *Spec) {
	c := s.Context.Compaction
	budget := c.ContextWindow - c.ReserveTokens
	if c.ContextWindow <= 0 || budget <= 0 {
		return
	}
	if est := (len(s.SystemPrompt) + 3) / 4; est >= budget {
		l.warnf(l.valuePos("system_prompt"), "system_prompt",
			"the system prompt alone is about %d tokens (four characters a token), at or over the budget of a request, %d (context.compaction context_window %d - reserve_tokens %d): every task would end at its first turn; shorten it or raise context_window",
			est, budget, c.ContextWindow, c.ReserveTokens)
	}
}
