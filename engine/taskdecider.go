package engine

import "context"

// TaskDecider is an Options.Decider that decides only some of the
// session's tasks: an MCP face mounted beside serve's task API decides the
// tasks its clients begin, and the spec's model decides the API's. Decides
// reads the task's context (a model call's context descends from it).
type TaskDecider interface {
	Decides(ctx context.Context) bool
}
