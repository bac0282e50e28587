package toolsets

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
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

type relationsArgs struct {
	Ref      string `json:"ref" jsonschema:"a scene-graph ref from the Brief, e.g. obj:mug"`
	Relation string `json:"relation,omitempty" jsonschema:"only relations of this kind: on, in, near or holding"`
}

type imageArgs struct {
	Ref string `json:"ref" jsonschema:"a scene-graph ref from the Brief, e.g. obj:mug"`
}

type lookupArgs struct {
	Query string `json:"query" jsonschema:"an object name, a class or a room"`
}

func builtinTools() []*builtinTool {
	return []*builtinTool{
		{
			def: model.ToolDef{
				Name: "query_user",
				Description: "Ask the person a question and wait for the answer. Use it when the instruction is ambiguous " +
					"(which object, which place) or before an irreversible action you are unsure about; do not ask what you can observe. " +
					"Give choices when there are few plausible answers, and attach the candidates' scene-graph refs (from the Brief or scene_lookup) in the same order: " +
					"the person sees them, and the result names the ref the answer picks. " +
					"If it fails, nobody answered: decide with what you know or end the task explaining what you need.",
				InputSchema: inputSchema[queryArgs]("question"),
			},
			selfTimed: true,
			run: typed("query_user", func(ctx context.Context, h *engine.CallHandle, a queryArgs) runlog.Envelope {
				q := engine.Question{Text: a.Question, Choices: a.Choices, Refs: a.Refs}
				if len(a.Refs) > 0 {
					cands, err := candidates(h.Scene, a.Refs)
					if err != nil {
						return runlog.Failure(fmt.Sprintf("not asked: %v. Attach only refs from the Brief or scene_lookup", err))
					}
					q.Candidates = cands
				}
				answer, err := h.User.Ask(ctx, q)
				if err != nil {
					return runlog.Failure(fmt.Sprintf("the user did not answer (%v): decide with what you know or end the task saying what you need", err))
				}
				value := groundAnswer(answer, a.Choices, a.Refs)
				h.Emit(runlog.Event{Kind: runlog.EventQuestion, Time: time.Now(), Tool: "query_user", Text: a.Question,
					Args: map[string]any{"question": a.Question, "choices": a.Choices, "refs": a.Refs, "answer": answer, "ref": value["ref"]}})
				return runlog.Envelope{Success: true, Value: value}
			}),
		},
		{
			def: model.ToolDef{
				Name: "notify_user",
				Description: "Tell the person something without waiting for an answer: progress on a long task, " +
					"a problem you are working around, or something they should know. It never fails the task.",
				InputSchema: inputSchema[notifyArgs]("message"),
			},
			run: typed("notify_user", func(ctx context.Context, h *engine.CallHandle, a notifyArgs) runlog.Envelope {
				h.Emit(runlog.Event{Kind: runlog.EventNotify, Time: time.Now(), Tool: "notify_user", Text: a.Message})
				if err := h.User.Notify(ctx, a.Message); err != nil {
					return runlog.Failure(fmt.Sprintf("the notification could not be delivered (%v); continue the task", err))
				}
				return runlog.Envelope{Success: true, Value: map[string]any{"delivered": true}}
			}),
		},
		{
			def: model.ToolDef{
				Name: "load_skill",
				Description: "Load the full instructions of a skill from the skill catalog by its name. " +
					"Load a skill before a task it covers; its instructions join the system message for the rest of the task.",
				InputSchema: inputSchema[skillArgs]("name"),
			},
			run: typed("load_skill", func(_ context.Context, h *engine.CallHandle, a skillArgs) runlog.Envelope {
				if _, err := h.Skills.Load(a.Name); err != nil {
					return runlog.Failure(fmt.Sprintf("no skill loaded: %v", err))
				}
				// The body joins Resident context (the system message) for the
				// rest of the task, as the seed's lifetimes say: the result only
				// says where, so the body is sent once and no later task's
				// history carries it.
				return runlog.Envelope{Success: true, Value: map[string]any{"name": a.Name,
					"loaded": fmt.Sprintf("its instructions are in the system message (Skill %q (loaded)) for the rest of this task", a.Name)}}
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
			run: typed("read_skill_resource", func(ctx context.Context, h *engine.CallHandle, a resourceArgs) runlog.Envelope {
				text, err := h.Skills.Resource(ctx, a.Skill, a.Path)
				if err != nil {
					return runlog.Failure(fmt.Sprintf("resource not read: %v", err))
				}
				return runlog.Envelope{Success: true, Value: map[string]any{"skill": a.Skill, "path": a.Path, "content": text}}
			}),
		},
		{
			def: model.ToolDef{
				Name: "get_object_relations",
				Description: "List what the scene graph relates a ref to (on, in, near, holding, in both directions), each with its source " +
					"(an observation and camera, or a confirmed call), its turn and whether it is stale. Refs come from the Brief.",
				InputSchema: inputSchema[relationsArgs]("ref"),
			},
			run: typed("get_object_relations", func(_ context.Context, h *engine.CallHandle, a relationsArgs) runlog.Envelope {
				rels, err := h.Scene.Relations(a.Ref, a.Relation)
				if err != nil {
					return runlog.Failure(err.Error())
				}
				list, err := plain(rels)
				if err != nil {
					return runlog.Failure(fmt.Sprintf("get_object_relations could not encode its result: %v", err))
				}
				return runlog.Envelope{Success: true, Value: map[string]any{"ref": a.Ref, "count": len(rels), "relations": list}}
			}),
		},
		{
			def: model.ToolDef{
				Name: "get_image",
				Description: "Show the last camera image that saw a ref (only each camera's latest image is kept). " +
					"It fails when that camera has looked elsewhere since: then move or observe to look again.",
				InputSchema: inputSchema[imageArgs]("ref"),
			},
			run: typed("get_image", func(_ context.Context, h *engine.CallHandle, a imageArgs) runlog.Envelope {
				v, err := h.Scene.View(a.Ref)
				if err != nil {
					return runlog.Failure(err.Error())
				}
				return runlog.Envelope{Success: true, Images: []world.Image{v.Image},
					Value: map[string]any{"ref": v.Ref, "camera": v.Camera, "turn": v.Turn}}
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
			run: typed("scene_lookup", func(_ context.Context, h *engine.CallHandle, a lookupArgs) runlog.Envelope {
				entries := h.Scene.Lookup(a.Query)
				list, err := plain(entries)
				if err != nil {
					return runlog.Failure(fmt.Sprintf("scene_lookup could not encode its result: %v", err))
				}
				return runlog.Envelope{Success: true, Value: map[string]any{"query": a.Query, "count": len(entries), "entries": list}}
			}),
		},
	}
}

// plain round-trips v through JSON so an envelope holds plain values, as an
// MCP tool's would.
func plain[T any](v []T) ([]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	list := []any{}
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, err
	}
	return list, nil
}

// candidates checks a question's refs against the Scene Graph and describes
// each, with its last view when one is kept.
func candidates(scene engine.SceneReader, refs []string) ([]engine.Candidate, error) {
	lines, err := scene.Describe(refs)
	if err != nil {
		return nil, err
	}
	out := make([]engine.Candidate, len(refs))
	for i, r := range refs {
		out[i] = engine.Candidate{Ref: r, Line: lines[i]}
		if v, err := scene.View(r); err == nil {
			img := v.Image
			out[i].View = &img
		}
	}
	return out, nil
}

// groundAnswer ties the answer to a ref: a picked choice stands for the ref
// at its index when choices and refs pair up one to one (or is itself a
// ref); otherwise an answer naming exactly one attached ref picks it. The
// value names the chosen ref so the rest of the task can ground on it.
func groundAnswer(answer string, choices, refs []string) map[string]any {
	v := map[string]any{"answer": answer}
	a := strings.TrimSpace(answer)
	ref := ""
	for i, c := range choices {
		if !strings.EqualFold(a, strings.TrimSpace(c)) {
			continue
		}
		v["choice"] = c
		switch {
		case len(choices) == len(refs):
			ref = refs[i]
		case slices.Contains(refs, c):
			ref = c
		}
		break
	}
	if ref == "" && v["choice"] == nil {
		var named []string
		words := strings.FieldsFunc(a, func(r rune) bool { return strings.ContainsRune(" \t\n,;.!?()\"'", r) })
		for _, r := range refs {
			if slices.Contains(words, r) {
				named = append(named, r)
			}
		}
		if len(named) == 1 {
			ref = named[0]
		}
	}
	if ref != "" {
		v["ref"] = ref
		v["grounded"] = "the user's answer picks " + ref
	}
	return v
}
