package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/thea-harness/thea/engine/scenegraph"
	"github.com/thea-harness/thea/runlog"
)

// callHandle makes the handle of one call of an in-process tool, bound to
// the running task. Tools may use it from their own goroutines, so every
// service goes through hostMu.
func (h *Harness) callHandle() *CallHandle {
	h.hostMu.Lock()
	t := h.task
	h.hostMu.Unlock()
	return &CallHandle{User: h.user, Skills: taskSkills{h, t}, Scene: sceneReader{h}, Emit: h.queue}
}

// taskSkills are the skills of one task (nil: the call ran between tasks).
type taskSkills struct {
	h *Harness
	t *task
}

var _ TaskSkills = taskSkills{}

// current fails unless the handle's task is still the running one.
func (s taskSkills) current(tool string) error {
	switch {
	case s.t == nil:
		return fmt.Errorf("%s: no task is running", tool)
	case s.h.task != s.t:
		return fmt.Errorf("%s: the task of this call has ended", tool)
	}
	return nil
}

// Load returns a skill body and adds it to Resident context for the rest of
// the call's task.
func (s taskSkills) Load(name string) (string, error) {
	h := s.h
	if h.opts.Skills == nil {
		return "", errors.New("load_skill: this session has no skills")
	}
	body, err := h.opts.Skills.Body(name)
	if err != nil {
		return "", fmt.Errorf("load_skill: %w", err)
	}
	h.hostMu.Lock()
	defer h.hostMu.Unlock()
	if err := s.current("load_skill"); err != nil {
		return "", err
	}
	if !slices.ContainsFunc(s.t.skills, func(l loadedSkill) bool { return l.name == name }) {
		s.t.skills = append(s.t.skills, loadedSkill{name: name, body: body})
		s.t.residentDirty = true
	}
	return body, nil
}

// Resource reads a resource of a skill, only once that skill was loaded in
// the call's task: resources are the third level of disclosure.
func (s taskSkills) Resource(ctx context.Context, skill, path string) (string, error) {
	h := s.h
	if h.opts.Skills == nil {
		return "", errors.New("read_skill_resource: this session has no skills")
	}
	h.hostMu.Lock()
	err := s.current("read_skill_resource")
	loaded := err == nil && slices.ContainsFunc(s.t.skills, func(l loadedSkill) bool { return l.name == skill })
	h.hostMu.Unlock()
	switch {
	case err != nil:
		return "", err
	case !loaded:
		return "", fmt.Errorf("read_skill_resource: skill %q is not loaded in this task: load it with load_skill first", skill)
	}
	text, err := h.opts.Skills.Resource(ctx, skill, path)
	if err != nil {
		return "", fmt.Errorf("read_skill_resource: %w", err)
	}
	return text, nil
}

// sceneReader reads the session's Scene Graph.
type sceneReader struct{ h *Harness }

var _ SceneReader = sceneReader{}

// Lookup returns the scene-graph entries matching query.
func (r sceneReader) Lookup(query string) []scenegraph.Entry {
	r.h.hostMu.Lock()
	defer r.h.hostMu.Unlock()
	return r.h.scene.Lookup(query)
}

// Relations returns the relations of ref.
func (r sceneReader) Relations(ref, relation string) ([]scenegraph.Relation, error) {
	r.h.hostMu.Lock()
	defer r.h.hostMu.Unlock()
	return r.h.scene.Relations(ref, relation)
}

// View returns the last view of ref.
func (r sceneReader) View(ref string) (scenegraph.View, error) {
	r.h.hostMu.Lock()
	defer r.h.hostMu.Unlock()
	return r.h.scene.View(ref)
}

// Describe checks refs and returns their Brief lines.
func (r sceneReader) Describe(refs []string) ([]string, error) {
	r.h.hostMu.Lock()
	defer r.h.hostMu.Unlock()
	if err := r.h.scene.Known(refs...); err != nil {
		return nil, err
	}
	lines := make([]string, len(refs))
	for i, ref := range refs {
		lines[i], _ = r.h.scene.Describe(ref) // known: checked above
	}
	return lines, nil
}

// taskStream is the TaskStream every toolset of the session gets.
type taskStream struct{ h *Harness }

var _ TaskStream = taskStream{}

// Emit queues an event for the running task's stream; the loop delivers it
// at its next step. Without a running task (a motion's late reply after the
// final answer, a back-end's stdout between tasks) it waits for the next one.
func (s taskStream) Emit(ev runlog.Event) { s.h.queue(ev) }

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
