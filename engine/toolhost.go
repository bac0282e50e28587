package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/thea-harness/thea/engine/scenegraph"
	"github.com/thea-harness/thea/runlog"
)

// hostAdapter is the Host that in-process tools receive. Tools may call it
// from their own goroutines, so it goes through hostMu.
type hostAdapter struct{ h *Harness }

var _ Host = hostAdapter{}

func (a hostAdapter) User() UserChannel { return a.h.user }

// LoadSkill returns a skill body and adds it to Resident context for the
// rest of the current task.
func (a hostAdapter) LoadSkill(name string) (string, error) {
	h := a.h
	if h.opts.Skills == nil {
		return "", errors.New("load_skill: this session has no skills")
	}
	body, err := h.opts.Skills.Body(name)
	if err != nil {
		return "", fmt.Errorf("load_skill: %w", err)
	}
	h.hostMu.Lock()
	defer h.hostMu.Unlock()
	if h.task == nil {
		return "", errors.New("load_skill: no task is running")
	}
	if !slices.ContainsFunc(h.task.skills, func(s loadedSkill) bool { return s.name == name }) {
		h.task.skills = append(h.task.skills, loadedSkill{name: name, body: body})
		h.task.residentDirty = true
	}
	return body, nil
}

// SkillResource reads a resource of a skill, only once that skill was
// loaded in the running task: resources are the third level of disclosure.
func (a hostAdapter) SkillResource(ctx context.Context, skill, path string) (string, error) {
	h := a.h
	if h.opts.Skills == nil {
		return "", errors.New("read_skill_resource: this session has no skills")
	}
	h.hostMu.Lock()
	running := h.task != nil
	loaded := running && slices.ContainsFunc(h.task.skills, func(s loadedSkill) bool { return s.name == skill })
	h.hostMu.Unlock()
	switch {
	case !running:
		return "", errors.New("read_skill_resource: no task is running")
	case !loaded:
		return "", fmt.Errorf("read_skill_resource: skill %q is not loaded in this task: load it with load_skill first", skill)
	}
	text, err := h.opts.Skills.Resource(ctx, skill, path)
	if err != nil {
		return "", fmt.Errorf("read_skill_resource: %w", err)
	}
	return text, nil
}

// SceneLookup returns the scene-graph entries matching query.
func (a hostAdapter) SceneLookup(query string) []scenegraph.Entry {
	h := a.h
	h.hostMu.Lock()
	defer h.hostMu.Unlock()
	return h.scene.Lookup(query)
}

// SceneRelations returns the relations of ref.
func (a hostAdapter) SceneRelations(ref, relation string) ([]scenegraph.Relation, error) {
	h := a.h
	h.hostMu.Lock()
	defer h.hostMu.Unlock()
	return h.scene.Relations(ref, relation)
}

// SceneView returns the last view of ref.
func (a hostAdapter) SceneView(ref string) (scenegraph.View, error) {
	h := a.h
	h.hostMu.Lock()
	defer h.hostMu.Unlock()
	return h.scene.View(ref)
}

// SceneDescribe checks refs and returns their Brief lines.
func (a hostAdapter) SceneDescribe(refs []string) ([]string, error) {
	h := a.h
	h.hostMu.Lock()
	defer h.hostMu.Unlock()
	if err := h.scene.Known(refs...); err != nil {
		return nil, err
	}
	lines := make([]string, len(refs))
	for i, r := range refs {
		lines[i], _ = h.scene.Describe(r) // known: checked above
	}
	return lines, nil
}

// Emit queues an event for the running task's stream; the loop delivers it
// at its next step. Without a running task (a motion's late reply after the
// final answer, a back-end's stdout between tasks) it waits for the next one.
func (a hostAdapter) Emit(ev runlog.Event) { a.h.queue(ev) }

func (h *Harness) queue(ev runlog.Event) {
	h.hostMu.Lock()
	defer h.hostMu.Unlock()
	if h.task == nil {
		h.between.keep(ev)
		return
	}
	h.task.pending = append(h.task.pending, ev)
	h.task.wakeUp()
}
