package toolsets

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
)

// inputSchema generates a tool's input schema from its Go argument type, so
// the schema the model sees and the type the handler decodes cannot drift.
// Fields without omitempty are required; nonEmpty strings need a character.
func inputSchema[A any](nonEmpty ...string) json.RawMessage {
	s, err := jsonschema.For[A](nil)
	if err != nil {
		// The argument types are this package's own: a failure is a bug
		// caught by the package's tests, never by a user.
		panic(fmt.Sprintf("input schema for %T: %v", *new(A), err))
	}
	one := 1
	for _, name := range nonEmpty {
		if p, ok := s.Properties[name]; ok {
			p.MinLength = &one
		}
	}
	b, err := json.Marshal(s)
	if err != nil {
		panic(fmt.Sprintf("input schema for %T: %v", *new(A), err))
	}
	return b
}

type queryArgs struct {
	Question string   `json:"question" jsonschema:"the question, one sentence"`
	Choices  []string `json:"choices,omitempty" jsonschema:"possible answers; the user may pick one by number"`
	Refs     []string `json:"refs,omitempty" jsonschema:"scene-graph refs the question is about"`
}

type notifyArgs struct {
	Message string `json:"message" jsonschema:"what to tell the user"`
}

type skillArgs struct {
	Name string `json:"name" jsonschema:"the skill's name as listed in the catalog"`
}

type resourceArgs struct {
	Skill string `json:"skill" jsonschema:"the loaded skill's name"`
	Path  string `json:"path" jsonschema:"the resource's path as listed, relative to the skill's folder"`
}

type lookupArgs struct {
	Query string `json:"query" jsonschema:"an object name, a class or a room"`
}

func builtinTools(host engine.Host) []*builtinTool {
	return []*builtinTool{
		{
			def: model.ToolDef{
				Name: "query_user",
				Description: "Ask the person a question and wait for the answer. Use it when the instruction is ambiguous " +
					"(which object, which place) or before an irreversible action you are unsure about; do not ask what you can observe. " +
					"Give choices when there are few plausible answers, and attach scene-graph refs (from scene_lookup) of the candidates. " +
					"If it fails, nobody answered: decide with what you know or end the task explaining what you need.",
				InputSchema: inputSchema[queryArgs]("question"),
			},
			run: typed("query_user", func(ctx context.Context, a queryArgs) engine.Envelope {
				q := engine.Question{Text: a.Question, Choices: a.Choices, Refs: a.Refs}
				answer, err := host.User().Ask(ctx, q)
				if err != nil {
					return engine.Failure(fmt.Sprintf("the user did not answer (%v): decide with what you know or end the task saying what you need", err))
				}
				host.Emit(engine.Event{Kind: engine.EventQuestion, Time: time.Now(), Tool: "query_user", Text: a.Question,
					Args: map[string]any{"question": a.Question, "choices": a.Choices, "refs": a.Refs, "answer": answer}})
				return engine.Envelope{Success: true, Value: map[string]any{"answer": answer}}
			}),
		},
		{
			def: model.ToolDef{
				Name: "notify_user",
				Description: "Tell the person something without waiting for an answer: progress on a long task, " +
					"a problem you are working around, or something they should know. It never fails the task.",
				InputSchema: inputSchema[notifyArgs]("message"),
			},
			run: typed("notify_user", func(ctx context.Context, a notifyArgs) engine.Envelope {
				host.Emit(engine.Event{Kind: engine.EventNotify, Time: time.Now(), Tool: "notify_user", Text: a.Message})
				if err := host.User().Notify(ctx, a.Message); err != nil {
					return engine.Failure(fmt.Sprintf("the notification could not be delivered (%v); continue the task", err))
				}
				return engine.Envelope{Success: true, Value: map[string]any{"delivered": true}}
			}),
		},
		{
			def: model.ToolDef{
				Name: "load_skill",
				Description: "Load the full instructions of a skill from the skill catalog by its name. " +
					"Load a skill before a task it covers; its instructions stay available for the rest of the task.",
				InputSchema: inputSchema[skillArgs]("name"),
			},
			run: typed("load_skill", func(_ context.Context, a skillArgs) engine.Envelope {
				body, err := host.LoadSkill(a.Name)
				if err != nil {
					return engine.Failure(fmt.Sprintf("no skill loaded: %v", err))
				}
				return engine.Envelope{Success: true, Value: map[string]any{"name": a.Name, "instructions": body}}
			}),
		},
		{
			def: model.ToolDef{
				Name: "read_skill_resource",
				Description: "Read a file bundled with a skill you loaded in this task (a reference, a table, a script), " +
					"by the path listed when the skill loaded. Read one only when the skill's instructions call for it. " +
					"It fails for a skill not loaded yet (load it first) and for any path outside the skill's folder.",
				InputSchema: inputSchema[resourceArgs]("skill", "path"),
			},
			run: typed("read_skill_resource", func(_ context.Context, a resourceArgs) engine.Envelope {
				text, err := host.SkillResource(a.Skill, a.Path)
				if err != nil {
					return engine.Failure(fmt.Sprintf("resource not read: %v", err))
				}
				return engine.Envelope{Success: true, Value: map[string]any{"skill": a.Skill, "path": a.Path, "content": text}}
			}),
		},
		{
			def: model.ToolDef{
				Name: "scene_lookup",
				Description: "Look up objects in the scene graph (the harness's memory of what has been seen) by name, class or room, " +
					"with where they were seen, by which source, and how fresh that is. It does not look: if nothing or only stale " +
					"entries come back, observe or move to look again.",
				InputSchema: inputSchema[lookupArgs]("query"),
			},
			run: typed("scene_lookup", func(_ context.Context, a lookupArgs) engine.Envelope {
				entries := host.SceneLookup(a.Query)
				// Round-trip through JSON so the envelope holds plain values, as
				// an MCP tool's would.
				b, err := json.Marshal(entries)
				if err != nil {
					return engine.Failure(fmt.Sprintf("scene_lookup could not encode its result: %v", err))
				}
				list := []any{}
				if err := json.Unmarshal(b, &list); err != nil {
					return engine.Failure(fmt.Sprintf("scene_lookup could not encode its result: %v", err))
				}
				return engine.Envelope{Success: true, Value: map[string]any{"query": a.Query, "count": len(entries), "entries": list}}
			}),
		},
	}
}
