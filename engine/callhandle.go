package engine

import (
	"context"
	"encoding/json"
	"time"

	"github.com/thea-harness/thea/engine/scenegraph"
	"github.com/thea-harness/thea/runlog"
)

// CallHandle is what one call of an in-process tool reaches of its session,
// made by the engine for that call: the person, the skills of the call's
// task, the Scene Graph to read, and the task's event stream. A tool gets
// no handle to keep and nothing else of the session (no tools, no policy,
// no run log), so an in-process tool cannot step around the hooks.
type CallHandle struct {
	// User is the person at the other end (query_user, notify_user).
	User UserChannel
	// Skills loads skills into the call's task and reads their resources.
	Skills TaskSkills
	// Scene reads the Scene Graph.
	Scene SceneReader
	// Emit adds an event to the task's stream (a question with its answer,
	// a notification); the engine stamps its task, turn and time.
	Emit func(runlog.Event)
}

// InProcessTool is a tool that runs in the harness (the builtin kind's).
// The engine calls CallWith with a handle made for the call; Call, without
// one, answers outside a session (a live check lists tools and calls none).
type InProcessTool interface {
	Tool
	CallWith(ctx context.Context, h *CallHandle, args json.RawMessage) runlog.Envelope
}

// TaskSkills are the skills of the call's task. Both fail once that task
// has ended: a skill loaded late would join the next task's context.
type TaskSkills interface {
	// Load returns a skill's body and adds it to Resident context for the
	// rest of the call's task.
	Load(name string) (string, error)
	// Resource reads a resource file of a skill loaded in the call's task,
	// confined to that skill's folder.
	Resource(ctx context.Context, skill, path string) (string, error)
}

// SceneReader reads the Scene Graph, for the model to ask for detail beyond
// the Brief. It never changes the graph.
type SceneReader interface {
	// Lookup returns the entries matching a query (a name, a class or a
	// room).
	Lookup(query string) []scenegraph.Entry
	// Relations returns the relations a ref takes part in, of one kind when
	// relation is not empty; an unknown ref is an error naming the known
	// ones.
	Relations(ref, relation string) ([]scenegraph.Relation, error)
	// View returns the last view of a ref (the last image of the camera that
	// last saw it), or an error saying why there is none.
	View(ref string) (scenegraph.View, error)
	// Describe checks refs against the graph and returns each one's Brief
	// line; an unknown ref is an error naming the known ones.
	Describe(refs []string) ([]string, error)
}

// TaskStream is what a toolset itself (not a call) reaches of its session
// (ToolsetConfig.Stream): the running task's event stream, for what a
// back-end reports on its own time, and a hold on that task's end.
type TaskStream interface {
	// Emit sends an event to the running task's stream (a late reply, a
	// killed back-end, a goal's feedback); between tasks it waits for the
	// next one.
	Emit(runlog.Event)
	// Hold keeps the running task's done event back until release is
	// called, or at most within: work the task started whose events belong
	// to it (a motion's stop path: the stop tool, the late reply, a kill)
	// reaches its run log before its end, even when it ends first (Ctrl-C,
	// a served interrupt or shutdown). what names it if the bound passes.
	// Without a running task it holds nothing. release may be called more
	// than once and from any goroutine.
	Hold(what string, within time.Duration) (release func())
}
