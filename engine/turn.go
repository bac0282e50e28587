package engine

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/schema"
)

// Turn is one turn as the stages see it: one model decision and at most one
// tool execution. The engine owns it; stages act only through its methods,
// each one step of R3/R5.
type Turn struct {
	// Number is the turn of the task, from 1.
	Number int

	h     *Harness
	t     *task
	group int

	resp     *model.Response
	args     map[string]any // the first call's decoded arguments
	argsErr  error
	results  []callResult
	recorded bool
	end      *Report
}

// callResult is one answered call of this turn.
type callResult struct {
	id, name string
	args     map[string]any
	env      Envelope
	executed bool
	// revised: the call was answered because the instruction changed, not
	// because it failed; it does not count against the failure budget.
	revised bool
}

// Ended reports whether the task ends with this turn.
func (tn *Turn) Ended() bool { return tn.end != nil }

// SnapshotNotes appends a Task Notes snapshot to Accumulated context when
// the notes changed since the last snapshot.
func (tn *Turn) SnapshotNotes() {
	t := tn.t
	if t.notes.version == t.snapshotted {
		return
	}
	t.snapshotted = t.notes.version
	tn.h.store.append(entry{kind: kindNotes, group: tn.group, msg: userText(t.notes.render())})
}

// Observe obtains a fresh Observation through the spec's observation tool
// and replaces the previous one. A failure is recorded as an explicit
// "observation unavailable" line, never a crash.
func (tn *Turn) Observe(ctx context.Context) {
	h, spec := tn.h, tn.h.spec
	if spec.Observation.Tool == "" {
		return
	}
	// Observing is a tool execution too (a camera may move a pan-tilt head):
	// cancellation is honoured before it.
	if tn.end = h.cancelled(ctx, tn.t, "observation"); tn.end != nil {
		return
	}
	env := h.CallTool(ctx, spec.Observation.Tool, spec.Observation.Args)
	if !env.Success {
		h.store.setObservation(fmt.Sprintf("Observation (turn %d): observation unavailable: %s", tn.Number, env.Reason), nil)
		tn.t.observation = nil
		h.emit(tn.t, Event{Kind: EventObservation, Tool: spec.Observation.Tool, Text: "observation unavailable: " + env.Reason})
		return
	}
	obs, text, err := decodeObservation(env)
	if err != nil {
		h.store.setObservation(fmt.Sprintf("Observation (turn %d): observation unavailable: %v", tn.Number, err), nil)
		tn.t.observation = nil
		h.emit(tn.t, Event{Kind: EventObservation, Tool: spec.Observation.Tool, Text: "observation unavailable: " + err.Error()})
		return
	}
	tn.t.observation = obs
	h.store.setObservation(fmt.Sprintf("Observation (turn %d, from %s):\n%s", tn.Number, spec.Observation.Tool, text), obs.Images)
	h.hostMu.Lock()
	h.scene.Update(obs.Detections, h.groupN, spec.Observation.Tool)
	h.hostMu.Unlock()
	h.emit(tn.t, Event{Kind: EventObservation, Tool: spec.Observation.Tool, Observation: obs, Images: obs.Images})
}

// decodeObservation reads an envelope's value as the documented Observation
// and returns it with its JSON text (one encode, one decode); images come
// from the envelope's image content.
func decodeObservation(env Envelope) (*schema.Observation, []byte, error) {
	b, err := json.Marshal(env.Value)
	if err != nil {
		return nil, nil, fmt.Errorf("observation value: %w", err)
	}
	var obs schema.Observation
	if err := json.Unmarshal(b, &obs); err != nil {
		return nil, nil, fmt.Errorf("observation does not match the Observation shape: %w", err)
	}
	obs.Images = matchImages(obs.Images, env.Images)
	return &obs, b, nil
}

// matchImages pairs the image metadata of the observation JSON with the
// envelope's image data, in order; data without metadata is kept as is.
func matchImages(meta, data []schema.Image) []schema.Image {
	out := make([]schema.Image, 0, len(data))
	for i, d := range data {
		if i < len(meta) {
			m := meta[i]
			m.Data = d.Data
			if m.MIME == "" {
				m.MIME = d.MIME
			}
			d = m
		}
		out = append(out, d)
	}
	return out
}

// RefreshBrief refreshes the working Scene Graph's clock and renders its
// compact Brief into Refreshed context.
func (tn *Turn) RefreshBrief() {
	h := tn.h
	if !h.spec.SceneGraph.Enabled {
		return
	}
	h.hostMu.Lock()
	h.scene.Advance(h.groupN)
	brief := h.scene.Brief(h.spec.SceneGraph.MaxBriefObjects)
	h.hostMu.Unlock()
	h.store.setBrief(brief)
}

// Compact applies Accumulated-context compaction when the estimated request
// reaches context_window - reserve_tokens. A failed or malformed summary
// leaves the context unchanged (an event says why); the next turn retries.
func (tn *Turn) Compact(ctx context.Context) {
	h := tn.h
	h.syncResident(tn.t)
	before := h.store.total()
	if !h.compactor.due(before) {
		return
	}
	out, info, err := h.compactor.run(ctx, h.store.acc, tn.group)
	info.TokensBefore = before
	if err != nil {
		info.Error = err.Error()
		info.TokensAfter = before
		info.MessagesAfter = info.MessagesBefore
		h.emit(tn.t, Event{Kind: EventCompaction, Text: "compaction failed: " + err.Error(), Compaction: &info})
		return
	}
	h.store.acc = out
	h.store.accTokens = 0
	for i := range out {
		h.store.accTokens += out[i].tokens
	}
	info.TokensAfter = h.store.total()
	h.emit(tn.t, Event{Kind: EventCompaction, Text: info.Source, Compaction: &info})
}

// syncResident re-renders Resident context when load_skill added a body.
func (h *Harness) syncResident(t *task) {
	h.hostMu.Lock()
	dirty := t.residentDirty
	h.hostMu.Unlock()
	if !dirty {
		return
	}
	if err := h.refreshResident(t, false); err != nil {
		h.log.Error("refresh resident context", "err", err)
	}
}
