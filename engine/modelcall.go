package engine

import (
	"context"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/thea-harness/thea/engine/lifetimes"
	"github.com/thea-harness/thea/engine/model"
	"github.com/thea-harness/thea/runlog"
	"github.com/thea-harness/thea/schema"
)

// episodeInfo describes the session for the task_start event.
func (h *Harness) episodeInfo() *runlog.EpisodeInfo {
	info := &runlog.EpisodeInfo{Format: runlog.Format}
	if d, err := runlog.SpecDigest(h.spec.Files); err != nil {
		h.log.Warn("episode: spec digest", "err", err)
	} else {
		info.SpecDigest = d
	}
	for _, f := range h.spec.Files {
		info.SpecFiles = append(info.SpecFiles, filepath.Base(f))
	}
	names := make([]string, 0, len(h.spec.Toolsets))
	for name, ts := range h.spec.Toolsets {
		if len(ts.CommandLine()) > 0 {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		cmd := slices.Clone(h.spec.Toolsets[name].CommandLine())
		if info.Toolsets == nil {
			info.Toolsets = map[string][]string{}
		}
		info.Toolsets[name] = cmd
		if s, ok := runlog.SeedArg(cmd); ok && info.Seed == "" {
			info.Seed = s
		}
	}
	return info
}

// newModel builds a model through its provider among the components, wrapped so that each of its
// requests is redacted and each of its calls is recorded as an
// EventModelCall of the running task. Every model the session calls is
// built here: the acting model, the evaluator, compaction, consolidation.
func (h *Harness) newModel(cfg schema.Model) (model.Model, error) {
	m, err := h.opts.Components.NewModel(cfg, h.spec.Dir)
	if err != nil {
		return nil, err
	}
	return recordedModel{m: m, h: h, name: cfg.Label()}, nil
}

// recordedModel is the one door between the session and a provider. It
// redacts each request once, whatever assembled it (the decide request with
// tool results, observations, memory, skills, the instruction and Task
// Notes; a compaction, evaluation or consolidation request), and queues an
// EventModelCall for each call, delivered with the task's next flush (after
// the decide stage; with the evaluator's verdict).
type recordedModel struct {
	m    model.Model
	h    *Harness
	name string
}

// Generate implements model.Model. Each retried attempt is queued as an
// EventModelRetry ahead of the call's EventModelCall.
func (r recordedModel) Generate(ctx context.Context, req model.Request) (model.Response, error) {
	p := req.Purpose
	if p == "" {
		p = model.PurposeDecide
	}
	ctx = model.WithRetryReport(ctx, func(rt model.Retry) {
		rt.Purpose = p
		r.h.queueQuiet(runlog.Event{Kind: runlog.EventModelRetry, Text: string(p), Retry: &rt})
	})
	release := func() {}
	if p == model.PurposeDecide {
		req, release = r.h.decideRed.Redact(r.h.redactor, req)
	} else {
		req = lifetimes.RedactRequest(r.h.redactor, req)
	}
	start := time.Now()
	resp, err := r.m.Generate(ctx, req)
	took := time.Since(start)
	release()
	mc := runlog.ModelCall{Purpose: p, Model: r.name}
	if err != nil {
		mc.Error = err.Error()
	} else {
		mc = runlog.NewModelCall(p, r.name, resp)
	}
	mc.Start, mc.Duration = start, took
	r.h.queueQuiet(runlog.Event{Kind: runlog.EventModelCall, Text: string(p), ModelCall: &mc})
	return resp, err
}

// Unwrap returns the provider's model.
func (r recordedModel) Unwrap() model.Model { return r.m }

// queueQuiet queues an event for the running task; outside a task (a
// preview) it is dropped without a warning.
func (h *Harness) queueQuiet(ev runlog.Event) {
	h.hostMu.Lock()
	defer h.hostMu.Unlock()
	if h.task != nil {
		h.task.pending = append(h.task.pending, ev)
	}
}
