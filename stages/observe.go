package stages

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/thea-harness/thea/engine"
	"github.com/thea-harness/thea/engine/scenegraph"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/world"
)

// Observe obtains a fresh Observation through the spec's observation tool
// and replaces the previous one (Refreshed context is replaced, never
// appended); its detections update the Scene
// Graph. A failure is recorded as an explicit "observation unavailable"
// line, never a crash.
type Observe struct{}

// Name implements engine.Stage.
func (Observe) Name() string { return "observe" }

// Run implements engine.Stage.
func (Observe) Run(ctx context.Context, t *engine.Turn) error {
	spec := t.Spec()
	tool := spec.Observation.Tool
	if tool == "" {
		return nil
	}
	// Observing is a tool execution too (a camera may move a pan-tilt head):
	// cancellation is honoured before it.
	if t.Cancelled(ctx, "observation") {
		return nil
	}
	env := t.Observe(ctx)
	if !env.Success {
		unavailable(t, tool, env.Reason)
		return nil
	}
	obs, err := decodeObservation(env)
	if err != nil {
		unavailable(t, tool, err.Error())
		return nil
	}
	// The Brief, when this turn renders one, states the robot's pose and
	// what it holds: the observation's text need not say them again.
	robotInBrief := spec.SceneGraph.Enabled && slices.Contains(spec.Loop.Stages, SceneBrief{}.Name())
	var b strings.Builder
	b.Grow(512)
	b.WriteString("Observation (turn ")
	b.WriteString(strconv.Itoa(t.Number))
	b.WriteString(", from " + tool + "):\n")
	writeObservation(&b, env.Value, robotInBrief)
	t.SetObservation(b.String(), obs)
	t.WithScene(func(g *scenegraph.Graph, clock int) { g.Update(obs, clock, tool) })
	t.Emit(runlog.Event{Kind: runlog.EventObservation, Tool: tool, Observation: obs, Images: obs.Images})
	return nil
}

func unavailable(t *engine.Turn, tool, why string) {
	t.SetObservation(fmt.Sprintf("Observation (turn %d): observation unavailable: %s", t.Number, why), nil)
	t.Emit(runlog.Event{Kind: runlog.EventObservation, Tool: tool, Text: "observation unavailable: " + why})
}

// decodeObservation reads an envelope's value with the one decoder of an
// observation (world.DecodeValue); images come from the envelope's image
// content.
func decodeObservation(env runlog.Envelope) (*world.Observation, error) {
	obs, err := world.DecodeValue(env.Value)
	if err != nil {
		return nil, fmt.Errorf("observation value: %w", err)
	}
	obs.Images = matchImages(obs.Images, env.Images)
	return &obs, nil
}

// matchImages pairs the image metadata of the observation JSON with the
// envelope's image data, in order; data without metadata is kept as is.
func matchImages(meta, data []world.Image) []world.Image {
	out := make([]world.Image, 0, len(data))
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

// SceneBrief refreshes the Scene Graph's clock and renders its compact
// Brief into Refreshed context, replacing the previous one; the run
// log receives it as a scene event.
type SceneBrief struct{}

// Name implements engine.Stage.
func (SceneBrief) Name() string { return "scene_brief" }

// Run implements engine.Stage.
func (SceneBrief) Run(_ context.Context, t *engine.Turn) error {
	spec := t.Spec()
	if !spec.SceneGraph.Enabled {
		return nil
	}
	var brief string
	t.WithScene(func(g *scenegraph.Graph, clock int) {
		g.Advance(clock)
		brief = g.Brief(scenegraph.BriefLimits{Detailed: spec.SceneGraph.MaxBriefObjects, MaxRefs: spec.SceneGraph.MaxBriefRefs})
	})
	t.SetBrief(brief)
	t.Emit(runlog.Event{Kind: runlog.EventScene, Text: brief})
	return nil
}
