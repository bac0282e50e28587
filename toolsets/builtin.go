package toolsets

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/schema"
)

// builtinTool is one in-process tool: a definition and a typed handler.
type builtinTool struct {
	def engine.ToolDef
	run func(ctx context.Context, args json.RawMessage) engine.Envelope
}

func (b *builtinTool) Def() engine.ToolDef { return b.def }

// returnsOnCancel: every builtin tool either returns at once or blocks only
// on the user channel, which honours its context; the guard runs it inline.
func (b *builtinTool) returnsOnCancel() {}

func (b *builtinTool) Call(ctx context.Context, args json.RawMessage) engine.Envelope {
	return b.run(ctx, args)
}

// typed decodes the (already validated) arguments into A before calling f.
func typed[A any](name string, f func(context.Context, A) engine.Envelope) func(context.Context, json.RawMessage) engine.Envelope {
	return func(ctx context.Context, raw json.RawMessage) engine.Envelope {
		var a A
		if err := json.Unmarshal(raw, &a); err != nil {
			return engine.Failure(fmt.Sprintf("invalid arguments for %s: %v", name, err))
		}
		return f(ctx, a)
	}
}

type staticToolset struct {
	name  string
	tools []engine.Tool
}

func (s *staticToolset) Name() string                                 { return s.name }
func (s *staticToolset) Tools(context.Context) ([]engine.Tool, error) { return s.tools, nil }
func (s *staticToolset) Close() error                                 { return nil }

// NewBuiltinFactory builds the in-process toolset: query_user, notify_user,
// load_skill, read_skill_resource and scene_lookup.
func NewBuiltinFactory() engine.ToolsetFactory {
	return func(_ context.Context, spec *schema.Spec, name string, host engine.Host) (engine.Toolset, error) {
		if host == nil {
			return nil, fmt.Errorf("builtin toolset %q: no host", name)
		}
		cfg := spec.Toolsets[name]
		all := builtinTools(host)
		have := make([]string, len(all))
		for i, t := range all {
			have[i] = t.def.Name
		}
		keep, missing := restrict(cfg.Tools, have)
		if len(missing) > 0 {
			return nil, fmt.Errorf("builtin toolset %q: unknown tools %s (builtin has: %s)", name, strings.Join(missing, ", "), strings.Join(have, ", "))
		}
		ts := &staticToolset{name: name}
		for _, t := range all {
			if !keep[t.def.Name] {
				continue
			}
			timeout := cfg.Timeout.D()
			if t.def.Name == "query_user" {
				// A person answers on their own time: the user channel's timeout
				// (zero: until cancelled), not the toolset's, bounds the wait.
				timeout = spec.User.Timeout.D()
			}
			g, err := Guard(t, contractFor(spec, name, t.def.Name), timeout)
			if err != nil {
				return nil, fmt.Errorf("builtin toolset %q: %w", name, err)
			}
			ts.tools = append(ts.tools, g)
		}
		return ts, nil
	}
}

type queryArgs struct {
	Question string   `json:"question"`
	Choices  []string `json:"choices"`
	Refs     []string `json:"refs"`
}

type notifyArgs struct {
	Message string `json:"message"`
}

type skillArgs struct {
	Name string `json:"name"`
}

type resourceArgs struct {
	Skill string `json:"skill"`
	Path  string `json:"path"`
}

type lookupArgs struct {
	Query string `json:"query"`
}

func builtinTools(host engine.Host) []*builtinTool {
	return []*builtinTool{
		{
			def: engine.ToolDef{
				Name: "query_user",
				Description: "Ask the person a question and wait for the answer. Use it when the instruction is ambiguous " +
					"(which object, which place) or before an irreversible action you are unsure about; do not ask what you can observe. " +
					"Give choices when there are few plausible answers, and attach scene-graph refs (from scene_lookup) of the candidates. " +
					"If it fails, nobody answered: decide with what you know or end the task explaining what you need.",
				InputSchema: json.RawMessage(`{"type":"object","properties":{` +
					`"question":{"type":"string","minLength":1,"description":"the question, one sentence"},` +
					`"choices":{"type":"array","items":{"type":"string"},"description":"possible answers; the user may pick one by number"},` +
					`"refs":{"type":"array","items":{"type":"string"},"description":"scene-graph refs the question is about"}},` +
					`"required":["question"],"additionalProperties":false}`),
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
			def: engine.ToolDef{
				Name: "notify_user",
				Description: "Tell the person something without waiting for an answer: progress on a long task, " +
					"a problem you are working around, or something they should know. It never fails the task.",
				InputSchema: json.RawMessage(`{"type":"object","properties":{` +
					`"message":{"type":"string","minLength":1,"description":"what to tell the user"}},` +
					`"required":["message"],"additionalProperties":false}`),
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
			def: engine.ToolDef{
				Name: "load_skill",
				Description: "Load the full instructions of a skill from the skill catalog by its name. " +
					"Load a skill before a task it covers; its instructions stay available for the rest of the task.",
				InputSchema: json.RawMessage(`{"type":"object","properties":{` +
					`"name":{"type":"string","minLength":1,"description":"the skill's name as listed in the catalog"}},` +
					`"required":["name"],"additionalProperties":false}`),
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
			def: engine.ToolDef{
				Name: "read_skill_resource",
				Description: "Read a file bundled with a skill you loaded in this task (a reference, a table, a script), " +
					"by the path listed when the skill loaded. Read one only when the skill's instructions call for it. " +
					"It fails for a skill not loaded yet (load it first) and for any path outside the skill's folder.",
				InputSchema: json.RawMessage(`{"type":"object","properties":{` +
					`"skill":{"type":"string","minLength":1,"description":"the loaded skill's name"},` +
					`"path":{"type":"string","minLength":1,"description":"the resource's path as listed, relative to the skill's folder"}},` +
					`"required":["skill","path"],"additionalProperties":false}`),
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
			def: engine.ToolDef{
				Name: "scene_lookup",
				Description: "Look up objects in the scene graph (the harness's memory of what has been seen) by name, class or room, " +
					"with where they were seen, by which source, and how fresh that is. It does not look: if nothing or only stale " +
					"entries come back, observe or move to look again.",
				InputSchema: json.RawMessage(`{"type":"object","properties":{` +
					`"query":{"type":"string","minLength":1,"description":"an object name, a class or a room"}},` +
					`"required":["query"],"additionalProperties":false}`),
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
