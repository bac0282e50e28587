package engine

import (
	"context"
	"time"

	"github.com/thea-harness/thea/engine/scenegraph"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// Host is what in-process (builtin) tools may reach of their session. The
// engine implements it; toolsets receive it when they are built.
type Host interface {
	User() UserChannel
	// LoadSkill returns a skill's body and adds it to Resident context for the
	// rest of the current task.
	LoadSkill(name string) (string, error)
	// SkillResource reads a resource file of a skill loaded in the current
	// task, confined to that skill's folder.
	SkillResource(ctx context.Context, skill, path string) (string, error)
	// SceneLookup returns the scene-graph entries matching a query (a name, a
	// class or a room), for the model to ask for detail beyond the Brief.
	SceneLookup(query string) []scenegraph.Entry
	// SceneRelations returns the relations a ref takes part in, of one kind
	// when relation is not empty; an unknown ref is an error naming the
	// known ones.
	SceneRelations(ref, relation string) ([]scenegraph.Relation, error)
	// SceneView returns the last view of a ref (the last image of the camera
	// that last saw it), or an error saying why there is none.
	SceneView(ref string) (scenegraph.View, error)
	// SceneDescribe checks refs against the graph and returns each one's
	// Brief line; an unknown ref is an error naming the known ones.
	SceneDescribe(refs []string) ([]string, error)
	// Emit sends an event to the active task's stream (notification, question).
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

// Question is what query_user asks; Refs are scene-graph refs attached as
// candidates so the answer can be grounded, each described (and shown, by a
// channel that can) in Candidates. Kind tells a confirm hook's question from
// the model's, so a channel that answers them separately (the HTTP server)
// never takes an answer to one for the other.
type Question struct {
	Kind       QuestionKind `json:"kind,omitempty"`
	Text       string       `json:"text"`
	Choices    []string     `json:"choices,omitempty"`
	Refs       []string     `json:"refs,omitempty"`
	Candidates []Candidate  `json:"candidates,omitempty"`
	// Call is the call a confirm hook holds (nil for the model's questions),
	// so a channel can show what it would allow.
	Call *HeldCall `json:"call,omitempty"`
}

// HeldCall is a call waiting on a confirmation: its tool, its arguments as
// the hooks before the asking one left them, and the hook that asks.
type HeldCall struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args,omitempty"`
	Hook string         `json:"hook"`
}

// Candidate is one attached ref: its Brief line and its last view, if kept.
type Candidate struct {
	Ref  string        `json:"ref"`
	Line string        `json:"line"`
	View *schema.Image `json:"-"`
}

// QuestionKind says who asks: the model (query_user) or a confirm hook.
type QuestionKind string

// Question kinds; the zero value is a query.
const (
	QuestionQuery   QuestionKind = ""
	QuestionConfirm QuestionKind = "confirm"
)

// UserChannel is the person at the other end of query_user and notify_user.
// Implementations: terminal (interactive) and script (tests, demos).
type UserChannel interface {
	// Ask blocks until the user answers or ctx ends.
	Ask(ctx context.Context, q Question) (string, error)
	// Notify tells without waiting.
	Notify(ctx context.Context, text string) error
}

// Confirmer is a user channel that can take a confirm hook's answer apart
// from the instruction stream (the controlling terminal, a script in tests,
// a server's confirm endpoint). A channel offers it by implementing it.
type Confirmer interface {
	Confirm(ctx context.Context, q Question) (string, error)
}

// SkillCatalog is the session's fixed set of skills (name + description
// resident; bodies loaded on demand).
type SkillCatalog interface {
	// Render is the resident catalog text (names and descriptions).
	Render() string
	// Body returns one skill's instruction body, or an error naming the skill.
	Body(name string) (string, error)
	Names() []string
	// Resource reads one of a skill's resource files (path relative to its
	// folder); it refuses any path that leaves the folder.
	Resource(ctx context.Context, name, path string) (string, error)
}
